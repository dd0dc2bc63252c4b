import Foundation
import SchedulerKit
import Synchronization
import ToolSupport

extension RuleFamily {
    public static let serial = RuleFamily("S", title: "Serial execution and ordering")
}

extension RuleID {
    public static let s1 = RuleID(newRuleOf: .serial, number: 1)
    public static let s2 = RuleID(newRuleOf: .serial, number: 2)
    public static let s3 = RuleID(newRuleOf: .serial, number: 3)
    public static let s4 = RuleID(newRuleOf: .serial, number: 4)
    public static let s5 = RuleID(newRuleOf: .serial, number: 5)
    public static let s6 = RuleID(newRuleOf: .serial, number: 6)
    public static let s7 = RuleID(newRuleOf: .serial, number: 7)
}

/// S: serial execution and ordering.
enum SerialRules {
    static let producers = 4
    static let tasksPerProducer = ConformanceScale.scaled(25_000)

    static let total = producers * tasksPerProducer

    /// S3's ping-pongs between two threads, and those of one round (``ObservedTrials``).
    static let causalRounds = 10_000
    static let causalRound = 2_500

    static let all: [ConformanceRule] = [
        exclusion, fifoPerProducer, causalFIFO, happensBefore, asynchrony, fairSharing, scope,
    ]

    static let exclusion = ConformanceRule(
        id: .s1, family: .serial,
        evidence: .mixed(
            forced: "2 rounds in which a running task waits for the next one to start", trials: total,
            trial: "tasks from 4 threads that might overlap", round: floodRound),
        statement:
            "Two tasks of one scheduler never run at the same time, whichever threads submitted them: a task that waits for a second one to start, until it could have (Dispatch's global queues ran work queued after it, 300 ms at least), sees it start only after it returned, in 2 rounds, and 100 000 tasks from 4 threads never overlap.",
        why:
            "A stream's operators keep their state without locks; two of its events delivered at once corrupt it. That is why RAC made every scheduler serial.",
        catches:
            "ReactiveCocoa#136 (concurrent schedulers raced event delivery); a \"serial\" scheduler that is really a concurrent queue (negative control).",
        requires: .serial, excludes: .threadConfined, deadline: RuleDeadline.long
    ) { context in
        let scheduler = context.makeScheduler()
        // Forced: a first task waits until a second one, submitted once the first has started, starts too (overlap
        // proven) or could have (``ForcedOverlapRound``: Dispatch's pools ran work queued after it). A scheduler
        // that can overlap two tasks is caught every round.
        var outcomes: [ForcedOverlapRound.Outcome?] = []
        for number in 1...ForcedOverlapRound.rounds {
            let round = ForcedOverlapRound()
            let firstStarted = Counter()
            let ended = Counter()
            scheduler.schedule {
                firstStarted.increment()
                round.hold()
                ended.increment()
            }
            try context.waitUntil("round \(number): the first task", on: scheduler) { firstStarted.value > 0 }
            scheduler.schedule {
                round.secondStarts()
                ended.increment()
            }
            round.secondSubmitted()
            try context.waitUntil("round \(number): both tasks", on: scheduler) { ended.value == 2 }
            try require(
                round.outcome != .overlapped,
                "round \(number) of \(ForcedOverlapRound.rounds): a second task started while the first was still running"
            )
            outcomes.append(round.outcome)
        }
        let inFlight = Counter()
        let overlaps = Counter()
        let flooded = try flood(context, scheduler) { _, index in
            if inFlight.increment() != 1 { overlaps.increment() }
            // Every 500th task stays a while, so an overlapping scheduler is caught in the act.
            if index % 500 == 0 { usleep(200) }
            inFlight.decrement()
        } afterEachRound: { tasks in
            try require(
                overlaps.value == 0,
                "\(grouped(overlaps.value)) of \(grouped(tasks)) tasks started while another task was running")
        }
        let rounds = "\(outcomes.count) forced rounds" + (ForcedOverlapRound.caveat(outcomes).map { " (\($0))" } ?? "")
        return "\(rounds); \(grouped(flooded)) tasks from \(producers) producers"
    }

    static let fifoPerProducer = ConformanceRule(
        id: .s2, family: .serial,
        evidence: .observed(
            trials: total, trial: "tasks from 4 threads that might run out of their thread's order", round: floodRound),
        statement:
            "Tasks submitted by one thread run in the order that thread submitted them, also while other threads submit.",
        why: "The events of one stream must arrive in the order they were sent.",
        catches:
            "OpenCombine#234 (receive(on:) with a concurrent queue let the completion overtake a value); swift-corelibs-foundation#3272 and ProcedureKit#671 (on Linux, an OperationQueue with one operation at a time is not FIFO).",
        requires: .serial, excludes: .threadConfined
    ) { context in
        let scheduler = context.makeScheduler()
        let lastSeen = Shared([Int](repeating: -1, count: producers))
        let inversions = Shared<[String]>([])
        try flood(context, scheduler) { producer, index in
            lastSeen.update { last in
                if last[producer] >= index {
                    inversions.update {
                        $0.append("producer \(producer): task \(index) ran after task \(last[producer])")
                    }
                }
                last[producer] = index
            }
        } afterEachRound: { _ in
            let found = inversions.value
            try require(found.isEmpty, "\(grouped(found.count)) out-of-order tasks, first: \(found.first ?? "")")
        }
        return ""
    }

    static let causalFIFO = ConformanceRule(
        id: .s3, family: .serial,
        evidence: .observed(
            trials: causalRounds, trial: "cross-thread pairs whose second might overtake the first", round: causalRound),
        statement: "If schedule(a) returned before another thread called schedule(b), a runs before b.",
        why:
            "Code hands work across threads and expects the order it caused: a value sent after another must not be delivered before it.",
        catches: "A scheduler with a queue per producing thread, drained in any order.",
        requires: .serial, excludes: .threadConfined
    ) { context in
        let scheduler = context.makeScheduler()
        let pingPongs = try context.observe(causalRounds, inRoundsOf: causalRound) { round in
            let rounds = round.count
            let order = Shared<[Int]>([])
            order.update { $0.reserveCapacity(rounds * 2) }
            let turns = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
            context.whileDriven(scheduler) {
                Producers.run(2) { side in
                    for round in 0..<rounds {
                        if side == 1 { turns[1].wait() }
                        let sequence = round * 2 + side
                        scheduler.schedule { order.append(sequence) }
                        turns[1 - side].signal()
                        if side == 0 { turns[0].wait() }
                    }
                }
            }
            try context.waitUntil("all \(grouped(rounds * 2)) tasks", on: scheduler) { order.value.count == rounds * 2 }
            let ran = order.value
            if let bad = ran.indices.first(where: { ran[$0] != $0 }) {
                throw RuleFailure(
                    "task \(grouped(ran[bad])) ran in place \(grouped(bad)) of \(grouped(ran.count)) "
                        + "(it was scheduled after the task it overtook had been scheduled on the other thread)")
            }
        }
        return "\(grouped(pingPongs)) ping-pongs between 2 threads"
    }

    static let happensBefore = ConformanceRule(
        id: .s4, family: .serial,
        evidence: .observed(
            trials: total, trial: "unsynchronised increments from 4 threads that might be lost", round: floodRound),
        statement:
            "Each task sees every write made before it was scheduled and by the tasks before it, with no lock of its own: a plain counter bumped by 100 000 tasks from 4 threads (each reads it, yields the core, and writes it) comes out exact.",
        why:
            "The tasks of one serial scheduler own the state they touch and must need no lock of their own: that takes a happens-before edge from schedule to task and from task to task.",
        catches:
            "No peer's suite checks it; a lock-free queue missing a release or an acquire shows here and under ThreadSanitizer.",
        requires: .serial, excludes: .threadConfined, deadline: RuleDeadline.long
    ) { context in
        let scheduler = context.makeScheduler()
        let state = PlainCounter()
        try flood(context, scheduler) { _, _ in
            // Read, give the core away, write: a task that overlaps this one, on another core or on this one, lands
            // its write in between and an increment is lost. Without the gap, only two tasks on two cores within the
            // same few nanoseconds collide, which a busy machine hides (a control that overlapped most of its tasks
            // passed 18 of 20 busy runs).
            let seen = state.value
            sched_yield()
            state.value = seen + 1
        } afterEachRound: { tasks in
            // Read on a task of the scheduler: the scheduler's own ordering is what makes this read safe.
            let result = Shared(0)
            try runAsTask(context, on: scheduler, "the reading task") { result.update { $0 = state.value } }
            try require(
                result.value == tasks, "plain counter is \(grouped(result.value)) after \(grouped(tasks)) increments")
        }
        return ""
    }

    static let asynchrony = ConformanceRule(
        id: .s5, family: .serial,
        statement:
            "An asynchronous scheduler never runs a task on the stack of the schedule call that submitted it, also when a task schedules the next one.",
        why:
            "Code that schedules while holding a lock, or from inside a task, deadlocks or recurses when the scheduler runs the work on its stack.",
        catches:
            "ReactiveCocoa#1296 is the inline case (the immediate scheduler recursed on the stack); for an asynchronous scheduler, an optimisation that runs work inline when the queue is idle.",
        requires: .asynchronous
    ) { context in
        let scheduler = context.makeScheduler()
        let inside = InsideSchedule()
        let onCallerStack = Counter()
        let ran = Counter()
        let chainLength = 1_000
        @Sendable func chain(_ remaining: Int) {
            if inside.thisThreadIsInside { onCallerStack.increment() }
            ran.increment()
            if remaining > 0 { inside.call { _ = scheduler.schedule { chain(remaining - 1) } } }
        }
        for _ in 0..<chainLength {
            inside.call { _ = scheduler.schedule { chain(0) } }
        }
        inside.call { _ = scheduler.schedule { chain(chainLength) } }
        let expected = chainLength + chainLength + 1
        try context.waitUntil("all \(grouped(expected)) tasks", on: scheduler) { ran.value == expected }
        try require(
            onCallerStack.value == 0,
            "\(grouped(onCallerStack.value)) of \(grouped(expected)) tasks ran inside the schedule call")
        return ""
    }

    static let fairSharing = ConformanceRule(
        id: .s6, family: .serial,
        statement:
            "Schedulers that share threads share them fairly: while more schedulers than there are threads keep re-enqueueing busy work from inside their own tasks, a task on one more scheduler still starts (within 2 s).",
        why:
            "Many schedulers share few threads (one per stream, on a pool of one thread per core): one busy stream must not starve the rest.",
        catches:
            "libdispatch drains a serial queue for as long as it has work, so Dispatch declares S6; a pool that keeps a worker on one queue (negative control).",
        requires: [.serial, .asynchronous, .sharedThreads]
    ) { context in
        // More busy schedulers than a pool of one thread per core has threads, however the backend sizes itself.
        let busyCount = 2 * ProcessInfo.processInfo.activeProcessorCount + 2
        let stop = Atomic<Bool>(false)
        let steps = Counter()
        let busy = (0..<busyCount).map { _ in context.makeScheduler() }
        for scheduler in busy {
            @Sendable func step() {
                guard !stop.load(ordering: .acquiring) else { return }
                let until = ContinuousClock.now + .microseconds(20)
                while ContinuousClock.now < until {}
                steps.increment()
                scheduler.schedule { step() }
            }
            scheduler.schedule { step() }
        }
        defer { stop.store(true, ordering: .releasing) }
        try context.waitUntil("the busy schedulers to get going", on: busy[0]) { steps.value >= 100 }
        let probe = context.makeScheduler()
        let ran = Atomic<Bool>(false)
        probe.schedule { ran.store(true, ordering: .releasing) }
        let took = poll(upTo: .seconds(2)) { ran.load(ordering: .acquiring) }
        try require(
            ran.load(ordering: .acquiring),
            "a task on another scheduler did not start within 2 s while \(busyCount) schedulers kept re-enqueueing 20 µs tasks (\(grouped(steps.value)) of them ran)"
        )
        return "started after \(readable(took)) beside \(busyCount) busy schedulers"
    }

    static let scope = ConformanceRule(
        id: .s7, family: .serial,
        statement:
            "Serial covers a task's synchronous body only: work a task starts elsewhere and does not wait for may still run when the next task starts.",
        why:
            "Serial means the synchronous body of a task: work the task starts elsewhere is not covered, and code must not rely on it.",
        catches: "ReactiveX/RxSwift#2538 (maxConcurrentOperationCount limits only the synchronous part of a task).",
        requires: [.serial, .asynchronous]
    ) { context in
        let scheduler = context.makeScheduler()
        let release = DispatchSemaphore(value: 0)
        let secondStarted = DispatchSemaphore(value: 0)
        scheduler.schedule {
            DispatchQueue.global().async { _ = release.wait(timeout: .now() + 30) }
        }
        scheduler.schedule { secondStarted.signal() }
        let started = wait(secondStarted)
        release.signal()
        try require(
            started, "the second task waited for asynchronous work the first task started (did not start within 30 s)")
        return ""
    }
}

/// Deliberately unsynchronised state for S4: the scheduler's ordering is the only thing that makes it safe.
// @unchecked Sendable: on purpose — rule S4 checks that the scheduler's happens-before edges protect it
// (ThreadSanitizer reports a scheduler that does not).
final class PlainCounter: @unchecked Sendable {
    var value = 0
}
