import Foundation
import SchedulerKit
import Synchronization
import ToolSupport

extension RuleFamily {
    public static let recursion = RuleFamily("R", title: "Recursion")
}

extension RuleID {
    public static let r1 = RuleID(newRuleOf: .recursion, number: 1)
    public static let r2 = RuleID(newRuleOf: .recursion, number: 2)
    public static let r3 = RuleID(newRuleOf: .recursion, number: 3)
    public static let r4 = RuleID(newRuleOf: .recursion, number: 4)
}

/// R: recursion (`scheduleRecursive` and nested scheduling).
enum RecursionRules {
    static let all: [ConformanceRule] = [trampoline, noStackGrowth, boundedMemory, stopping]

    /// 1 000 000 steps where a step is cheap (inline or virtual), 100 000 elsewhere.
    static func deepCount(_ traits: SchedulerTraits) -> Int {
        ConformanceScale.scaled(traits.contains(.trampoline) || traits.contains(.virtualTime) ? 1_000_000 : 100_000)
    }

    static let trampoline = ConformanceRule(
        id: .r1, family: .recursion,
        statement:
            "On a trampolining scheduler, work scheduled from inside a task runs after that task returns, in FIFO order.",
        why: "Trampolining keeps an inline scheduler from growing the stack while it keeps FIFO order.",
        catches:
            "RxSwift's CurrentThreadScheduler basicScenario and RAC's \"after the caller completes\" spec check the same.",
        requires: .trampoline
    ) { context in
        let scheduler = context.makeScheduler()
        let order = Shared<[Int]>([])
        let probe = StackProbe()
        scheduler.schedule {
            order.append(1)
            scheduler.schedule {
                order.append(3)
                scheduler.schedule { order.append(5) }
            }
            scheduler.schedule { order.append(4) }
            order.append(2)
            _ = probe.sample()
        }
        try context.waitUntil("5 nested tasks", on: scheduler) { order.value.count >= 5 }
        try require(order.value == [1, 2, 3, 4, 5], "ran \(order.value), expected [1, 2, 3, 4, 5]")
        return ""
    }

    /// Runs `steps` recursive steps; stops early (and reports it) if the stack grows by more than 64 KiB.
    static func recurse(
        _ context: ConformanceContext, steps: Int,
        eachStep: @escaping @Sendable () -> Void = {}
    ) throws -> StackProbe {
        let scheduler = context.makeScheduler()
        let probe = StackProbe()
        let done = Counter()
        let grew = Atomic<Bool>(false)
        scheduler.scheduleRecursive { reschedule in
            eachStep()
            guard probe.sample() else { return grew.store(true, ordering: .releasing) }
            if done.increment() < steps { reschedule() }
        }
        do {
            try context.waitUntil("\(grouped(steps)) recursive steps", on: scheduler, timeout: .seconds(120)) {
                done.value >= steps || grew.load(ordering: .acquiring)
            }
        } catch let failure as RuleFailure {
            // How far the chain got tells a stall (it stopped) from slowness (it was still going).
            throw RuleFailure("\(failure.detail); \(grouped(done.value)) of \(grouped(steps)) had run")
        }
        try require(
            !grew.load(ordering: .acquiring),
            "the stack grew by more than \(StackProbe.limit / 1024) KiB after \(grouped(done.value)) recursive steps")
        return probe
    }

    static let noStackGrowth = ConformanceRule(
        id: .r2, family: .recursion,
        statement:
            "Self-rescheduling never grows the stack: 100 000 steps (1 000 000 inline or on virtual time) complete at a flat stack depth.",
        why: "Recursive streams (repeat, retry, paging) reschedule themselves millions of times.",
        catches: "ReactiveCocoa#1296 (the immediate scheduler recursed on the stack instead of flattening).",
        deadline: RuleDeadline.long
    ) { context in
        let steps = deepCount(context.backend.traits)
        let probe = try recurse(context, steps: steps)
        return "\(grouped(steps)) steps, stack spread \(grouped(probe.worstSpread)) bytes"
    }

    static let boundedMemory = ConformanceRule(
        id: .r3, family: .recursion,
        statement:
            "Recursion keeps bounded bookkeeping: after 1 000 000 steps, its captures are released and resident memory stays flat (under 32 MiB over the last 900 000).",
        why: "Bookkeeping that grows with every step leaks for as long as the recursion lives.",
        catches: "ReactiveCocoa#272 (unbounded recursion leaked through a growing compound disposable).",
        deadline: RuleDeadline.long
    ) { context in
        let steps = ConformanceScale.scaled(1_000_000)
        let captures = LiveCount()
        let before = ResidentMemory.current.map { Int($0) }
        let midway = Shared<Int?>(nil)
        let count = Counter()
        do {
            let capture = captures.make()
            _ = try recurse(context, steps: steps) {
                capture.touch()
                // Sampled after the warm-up, so allocator caches are already filled.
                if count.increment() == steps / 10 { midway.update { $0 = ResidentMemory.current.map { Int($0) } } }
            }
        }
        try context.waitUntil(
            "the recursion's captures to be released", on: context.makeScheduler(), timeout: .seconds(2)
        ) {
            captures.live == 0
        }
        let after = ResidentMemory.current.map { Int($0) }
        guard let before, let after, let early = midway.value else {
            return "\(grouped(steps)) steps; captures released; this system does not report resident memory"
        }
        // Keeping 40 bytes per step (the smallest object plus its pointer) would add 36 MB over 900 000 steps.
        let growth = after - early
        try require(
            growth < 32 << 20,
            "resident memory grew by \(grouped(growth)) bytes over the last \(grouped(steps - steps / 10)) of \(grouped(steps)) steps"
        )
        return
            "\(grouped(steps)) steps; resident memory \(grouped((after - before) / 1024)) KiB from start, \(grouped(growth / 1024)) KiB over the last 90%"
    }

    static let stopping = ConformanceRule(
        id: .r4, family: .recursion,
        statement:
            "Cancelling a recursion stops it within one step, from inside a step or from another thread, and a step may reschedule from an asynchronous callback.",
        why:
            "Disposing a recursive stream must stop it, and a step that reschedules from a completion handler must keep it going.",
        catches:
            "ReactiveCocoa#369, fixed by #370 (scheduleRecursiveBlock stopped when recurse was called asynchronously).",
        requires: .serial
    ) { context in
        let scheduler = context.makeScheduler()
        // From inside step 10 (the recursion is started from a task, so the handle exists before step 1).
        let insideSteps = Counter()
        let box = HandleBox()
        let insideResult = Shared<Bool?>(nil)
        let probe = StackProbe()
        scheduler.schedule {
            box.set(
                scheduler.scheduleRecursive { reschedule in
                    let step = insideSteps.increment()
                    if step == 10 { insideResult.update { $0 = box.value?.cancel() } }
                    if step < 1_000, probe.sample() { reschedule() }
                })
        }
        try context.waitUntil("10 recursive steps", on: scheduler) { insideSteps.value >= 10 }
        context.letTimePass(.milliseconds(20), on: scheduler)
        try require(
            insideResult.value == true,
            "cancel() from inside step 10 returned \(String(describing: insideResult.value))")
        try require(insideSteps.value == 10, "\(insideSteps.value - 10) steps ran after cancel() from inside step 10")
        // From another thread.
        let outsideSteps = Counter()
        let handle = scheduler.scheduleRecursive { reschedule in
            if outsideSteps.increment() < 200_000 { reschedule() }
        }
        try context.waitUntil("100 recursive steps", on: scheduler) { outsideSteps.value >= 100 || handle.isCancelled }
        try require(handle.cancel(), "cancel() of a live recursion returned false")
        let atCancel = outsideSteps.value
        context.letTimePass(.milliseconds(20), on: scheduler)
        try require(
            outsideSteps.value <= atCancel + 1,
            "\(outsideSteps.value - atCancel) steps started after cancel() returned true")
        // Rescheduling later, from another thread: not for a scheduler confined to one thread, which forbids it.
        if context.isThreadConfined {
            return "rescheduling from another thread not tried: the scheduler is thread-confined"
        }
        let asyncSteps = Counter()
        scheduler.scheduleRecursive { reschedule in
            if asyncSteps.increment() < 100 { DispatchQueue.global().async { reschedule() } }
        }
        try context.waitUntil("100 steps rescheduled from Dispatch callbacks", on: scheduler) {
            asyncSteps.value >= 100
        }
        return ""
    }
}
