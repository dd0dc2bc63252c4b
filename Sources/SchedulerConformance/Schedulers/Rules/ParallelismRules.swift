import Dispatch
import Foundation
import SchedulerKit
import Synchronization
import ToolSupport

extension RuleFamily {
    public static let parallelism = RuleFamily("P", title: "Parallelism (concurrent schedulers)")
}

extension RuleID {
    public static let p1 = RuleID(newRuleOf: .parallelism, number: 1)
    public static let p2 = RuleID(newRuleOf: .parallelism, number: 2)
    public static let p3 = RuleID(newRuleOf: .parallelism, number: 3)
    public static let p4 = RuleID(newRuleOf: .parallelism, number: 4)
    public static let p5 = RuleID(newRuleOf: .parallelism, number: 5)
    public static let p6 = RuleID(newRuleOf: .parallelism, number: 6)
}

/// P: parallelism, for concurrent schedulers (trait `concurrent`, width from ``ConcurrentScheduler``).
///
/// Each check forces what it looks for: tasks that wait for each other (P1) can only all finish if `width` of them
/// run at once; tasks that wait for one sibling too many (P2) show the excess as soon as the scheduler allows it;
/// a recursive step or a repeating tick that waits for the next one to start (P4) catches an overlap the moment it
/// is possible. Waits end after a generous timeout, after which the promise is believed.
enum ParallelismRules {
    /// P2's flood, from 4 threads.
    static let excessFlood = 20_000
    /// P3's tasks, from 4 threads.
    static let consumedTasks = 4 * ConformanceScale.scaled(25_000)
    /// P5's races of cancel against start beside busy streams.
    static let racesBeside = ConformanceScale.scaled(20_000)

    static let all: [ConformanceRule] = [
        widthReached, widthNeverExceeded, exactlyOnce, oneStepAtATime, truthfulBeside, startOrder,
    ]

    static func makeConcurrentScheduler(_ context: ConformanceContext) throws -> any ConcurrentScheduler {
        let scheduler = context.makeScheduler()
        guard let concurrent = scheduler as? any ConcurrentScheduler else {
            throw RuleFailure("\(type(of: scheduler)) claims the concurrent trait but is not a ConcurrentScheduler")
        }
        try require(concurrent.width >= 1, "width is \(concurrent.width)")
        return concurrent
    }

    static let rendezvousTimeout = Duration.seconds(5)
    static let excessTimeout = Duration.milliseconds(200)

    static let widthReached = ConformanceRule(
        id: .p1, family: .parallelism,
        statement:
            "The declared width is reached: width tasks that each wait until all of them have started all finish (3 rounds, 5 s each at most).",
        why:
            "Work is spread over a concurrent scheduler to run side by side: fan-out that silently runs one task at a time is as slow as a serial scheduler, or deadlocks when tasks wait for each other.",
        catches:
            "A \"concurrent\" scheduler over a serial queue, or an OperationQueue left at one operation at a time (negative control: serial posing as concurrent).",
        requires: .concurrent
    ) { context in
        let scheduler = try makeConcurrentScheduler(context)
        let width = scheduler.width
        for round in 1...3 {
            let arrived = Counter()
            let metAll = Counter()
            let ended = Counter()
            for _ in 0..<width {
                scheduler.schedule {
                    arrived.increment()
                    poll(upTo: rendezvousTimeout) { arrived.value >= width }
                    if arrived.value >= width { metAll.increment() }
                    ended.increment()
                }
            }
            try context.waitUntil("round \(round): \(width) tasks", on: scheduler) { ended.value == width }
            try require(
                metAll.value == width,
                "round \(round): of \(width) tasks that wait for each other only \(metAll.value) saw all \(width) started within \(readable(rendezvousTimeout)) (the most at once: \(arrived.value) by the end)"
            )
        }
        return "width \(width) reached in 3 of 3 rounds"
    }

    static let widthNeverExceeded = ConformanceRule(
        id: .p2, family: .parallelism,
        evidence: .mixed(
            forced: "width + 1 tasks that wait for one another", trials: excessFlood,
            trial: "task starts from 4 threads that might exceed the width"),
        statement:
            "The declared width is never exceeded: width + 1 tasks that wait for one another never run all at once, and 20 000 short tasks from 4 threads never have more than width in flight.",
        why:
            "The width is how a caller bounds what runs at once (connections, memory, a rate limit); a scheduler that exceeds it breaks that budget.",
        catches: "A width declared on a queue that brings up more threads when tasks block (negative control).",
        requires: .concurrent
    ) { context in
        let scheduler = try makeConcurrentScheduler(context)
        let width = scheduler.width
        let inFlight = Counter()
        let most = Atomic<Int>(0)
        let ended = Counter()
        // Forced: each waits until width + 1 are in flight; a scheduler that allows it shows it at once.
        for _ in 0...width {
            scheduler.schedule {
                most.max(inFlight.increment(), ordering: .relaxed)
                poll(upTo: excessTimeout) { inFlight.value > width }
                inFlight.decrement()
                ended.increment()
            }
        }
        try context.waitUntil("\(width + 1) waiting tasks", on: scheduler) { ended.value == width + 1 }
        let forced = most.load(ordering: .relaxed)
        let perProducer = excessFlood / 4
        Producers.run(4) { _ in
            for _ in 0..<perProducer {
                scheduler.schedule {
                    most.max(inFlight.increment(), ordering: .relaxed)
                    inFlight.decrement()
                    ended.increment()
                }
            }
        }
        let total = width + 1 + 4 * perProducer
        try context.waitUntil("\(grouped(total)) tasks", on: scheduler) { ended.value == total }
        let seen = most.load(ordering: .relaxed)
        try require(
            seen <= width,
            "\(seen) tasks ran at once on a scheduler of width \(width) (\(forced) among width + 1 tasks waiting for one another)"
        )
        return "at most \(seen) at once (width \(width))"
    }

    static let exactlyOnce = ConformanceRule(
        id: .p3, family: .parallelism,
        evidence: .observed(
            trials: consumedTasks, trial: "tasks that racing workers might lose or run twice",
            round: SerialRules.floodRound),
        statement:
            "Under 4 producers (more than there are cores) nothing is lost or run twice: 100 000 tasks each run exactly once.",
        why:
            "A concurrent queue has several consumers racing for each task; a task taken twice or by nobody is a lost or duplicated event.",
        catches: "A multi-consumer queue that loses a node when two workers pop at once, or hands one out twice.",
        requires: .concurrent
    ) { context in
        let scheduler = try makeConcurrentScheduler(context)
        let producers = 4
        let total = try context.observe(consumedTasks, inRoundsOf: SerialRules.floodRound) { round in
            let perProducer = round.count / producers
            let tasks = producers * perProducer
            let runs = Shared([UInt8](repeating: 0, count: tasks))
            let ran = Counter()
            Producers.run(producers) { producer in
                for offset in 0..<perProducer {
                    let index = producer * perProducer + offset
                    scheduler.schedule {
                        runs.update { $0[index] &+= 1 }
                        ran.increment()
                    }
                }
            }
            try context.waitUntil("\(grouped(tasks)) tasks", on: scheduler) { ran.value >= tasks }
            // A task run twice may still be on its way.
            usleep(20_000)
            let counts = runs.value
            let twice = counts.filter { $0 > 1 }.count
            let never = counts.filter { $0 == 0 }.count
            try require(
                twice == 0 && never == 0,
                "of \(grouped(tasks)) tasks \(grouped(never)) never ran and \(grouped(twice)) ran more than once")
        }
        return "\(grouped(total)) tasks from \(producers) producers, each once"
    }

    static let oneStepAtATime = ConformanceRule(
        id: .p4, family: .parallelism,
        statement:
            "Two steps of one scheduleRecursive never overlap, nor two ticks of one repeating task: each step asks for the next and then waits (20 ms at most) to see whether it starts.",
        why:
            "A recursive stream (repeat, retry, paging) or a timer keeps state between its steps without a lock; on a concurrent scheduler that holds only if steps never overlap (RxSwift's recursive scheduler promises it).",
        catches:
            "Recursion that schedules the next step as a plain task, and a repeating timer whose ticks are dispatched onto a concurrent queue (negative control).",
        requires: .concurrent
    ) { context in
        let scheduler = try makeConcurrentScheduler(context)
        let steps = 10
        let inStep = Atomic<Bool>(false)
        let overlaps = Counter()
        let started = Counter()
        let recursion = scheduler.scheduleRecursive { reschedule in
            let index = started.increment()
            if inStep.exchange(true, ordering: .acquiringAndReleasing) { overlaps.increment() }
            if index < steps {
                reschedule()
                poll(upTo: .milliseconds(20)) { started.value > index }
            }
            inStep.store(false, ordering: .releasing)
        }
        try context.waitUntil("\(steps) recursive steps", on: scheduler) { started.value >= steps }
        recursion.cancel()
        try require(overlaps.value == 0, "\(overlaps.value) of \(steps) recursive steps started while another ran")
        guard let timed = scheduler as? any TimedScheduler, scheduler.traits.contains(.repeating) else {
            return "\(steps) steps, none overlapped"
        }
        // Ticks every 2 ms that take 20 ms: the grid keeps offering the next tick while one runs.
        let ticking = Atomic<Bool>(false)
        let tickOverlaps = Counter()
        let ticks = Counter()
        let handle = timed.schedule(at: timed.now, every: .milliseconds(2)) {
            if ticking.exchange(true, ordering: .acquiringAndReleasing) { tickOverlaps.increment() }
            poll(upTo: .milliseconds(20)) { tickOverlaps.value > 0 }
            ticking.store(false, ordering: .releasing)
            ticks.increment()
        }
        try context.waitUntil("5 ticks", on: scheduler) { ticks.value >= 5 }
        handle.cancel()
        try require(tickOverlaps.value == 0, "\(tickOverlaps.value) repeating ticks started while another ran")
        return "\(steps) steps and \(ticks.value) ticks, none overlapped"
    }

    static let truthfulBeside = ConformanceRule(
        id: .p5, family: .parallelism,
        evidence: .observed(
            trials: racesBeside, trial: "races of cancel against start beside busy streams",
            round: CancellationRules.raceRound),
        statement:
            "cancel() stays truthful while other tasks run alongside: 20 000 schedule-then-cancel races beside width − 1 streams of busy tasks, and a task ran exactly when its cancel() returned false.",
        why:
            "With several workers, the start of a task races a cancel on more than one thread; the answer must still be exact.",
        catches: "A cancel flag checked by one worker while another has already taken the task.",
        requires: .concurrent
    ) { context in
        let scheduler = try makeConcurrentScheduler(context)
        // width − 1 streams of 20 µs tasks that keep re-enqueueing themselves, so the races share the workers.
        let stop = Atomic<Bool>(false)
        let streamsEnded = Counter()
        let busy = max(0, scheduler.width - 1)
        for _ in 0..<busy {
            @Sendable func spin() {
                guard !stop.load(ordering: .acquiring) else {
                    streamsEnded.increment()
                    return
                }
                let until = ContinuousClock.now + .microseconds(20)
                while ContinuousClock.now < until {}
                scheduler.schedule { spin() }
            }
            scheduler.schedule { spin() }
        }
        defer {
            stop.store(true, ordering: .releasing)
            _ = poll(upTo: .seconds(30)) { streamsEnded.value == busy }
        }
        let note = try CancellationRules.raceCancels(
            context, scheduler, kind: "task", count: racesBeside
        ) {
            scheduler.schedule($0)
        }
        return "\(note), beside \(busy) busy streams"
    }
}

extension ParallelismRules {
    static let startOrder = ConformanceRule(
        id: .p6, family: .parallelism,
        statement:
            "Tasks submitted from one thread start in the order they were submitted, though they may finish in any: of 200 tasks queued behind a busy width, fewer than half of all pairs start out of order (starts race only between workers taking tasks at the same moment).",
        why:
            "A concurrent scheduler is still a queue: work submitted first must not wait behind work submitted after it, or under load the oldest work starves.",
        catches:
            "A pool that puts new work at the front of its queue (the mutation pass's mutant 57 survived every other rule); Dispatch's concurrent queues and OperationQueue start work in order.",
        requires: .concurrent
    ) { context in
        let scheduler = try makeConcurrentScheduler(context)
        let width = scheduler.width
        let count = 200
        // Forced: every slot is held first, so all 200 tasks are queued before any of them can start.
        let gate = DispatchSemaphore(value: 0)
        let holding = Counter()
        for _ in 0..<width {
            scheduler.schedule {
                holding.increment()
                _ = gate.wait(timeout: .now() + 30)
            }
        }
        try context.waitUntil("\(width) tasks holding the width", on: scheduler) { holding.value == width }
        let starts = Shared<[Int]>([])
        for index in 0..<count { scheduler.schedule { starts.append(index) } }
        for _ in 0..<width { gate.signal() }
        try context.waitUntil("\(count) queued tasks", on: scheduler) { starts.value.count == count }
        let order = starts.value
        var inverted = 0
        for first in 0..<count {
            for second in (first + 1)..<count where order[first] > order[second] { inverted += 1 }
        }
        let pairs = count * (count - 1) / 2
        // Racing workers swap neighbours now and then; a queue that starts the newest first reverses nearly all.
        try require(
            inverted * 2 < pairs,
            "\(grouped(inverted)) of \(grouped(pairs)) pairs of tasks started in the reverse of their submission order")
        return "\(grouped(inverted)) of \(grouped(pairs)) pairs started out of order (workers taking tasks at once)"
    }
}
