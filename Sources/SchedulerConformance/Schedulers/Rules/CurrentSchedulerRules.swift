import Dispatch
import Foundation
import SchedulerKit
import Synchronization

extension RuleFamily {
    public static let currentScheduler = RuleFamily("K", title: "Current scheduler")
}

extension RuleID {
    public static let k1 = RuleID(newRuleOf: .currentScheduler, number: 1)
    public static let k2 = RuleID(newRuleOf: .currentScheduler, number: 2)
    public static let k3 = RuleID(newRuleOf: .currentScheduler, number: 3)
    public static let k4 = RuleID(newRuleOf: .currentScheduler, number: 4)
    public static let k5 = RuleID(newRuleOf: .currentScheduler, number: 5)
    public static let k6 = RuleID(newRuleOf: .currentScheduler, number: 6)
}

/// K: the current scheduler (`Schedulers.current`).
enum CurrentSchedulerRules {
    /// K2's rounds.
    static let leakRounds = 10_000
    /// K2's rounds per round of checks (``ObservedTrials``).
    static let leakRound = 2_500
    /// K4's create-use-destroy cycles.
    static let addressCycles = 100

    static let all: [ConformanceRule] = [
        insideEveryTask, noLeak, nesting, noABA, inlineUnderCurrent, inlineOnMainQueue,
    ]

    static let insideEveryTask = ConformanceRule(
        id: .k1, family: .currentScheduler,
        statement:
            "Inside every kind of task it runs (plain, delayed, repeating tick, recursive step) Schedulers.current is that scheduler.",
        why:
            "Schedulers.current is how deliverOn: skips a needless hop and how code asserts where it runs: it must be right in every kind of task.",
        catches:
            "RAC's repeating timers skip performAsCurrentScheduler, so a tick sees no current scheduler (seen in its source).",
        requires: .setsCurrent
    ) { context in
        let scheduler = context.makeScheduler()
        let wrong = Shared<[String]>([])
        let seen = Counter()
        @Sendable func check(_ kind: String) {
            if Schedulers.current !== scheduler { wrong.update { $0.append(kind) } }
            seen.increment()
        }
        scheduler.schedule { check("plain task") }
        var expected = 1
        if let timed = scheduler as? any TimedScheduler {
            timed.schedule(at: timed.now + .milliseconds(5)) { check("delayed task") }
            expected += 1
            if context.backend.traits.contains(.repeating) {
                let box = HandleBox()
                let ticks = Counter()
                box.set(
                    timed.schedule(at: timed.now + .milliseconds(5), every: .milliseconds(5)) {
                        check("repeating tick")
                        if ticks.increment() == 3 { box.value?.cancel() }
                    })
                expected += 3
            }
        }
        let steps = Counter()
        scheduler.scheduleRecursive { reschedule in
            check("recursive step")
            if steps.increment() < 3 { reschedule() }
        }
        expected += 3
        try context.waitUntil("\(expected) tasks of every kind", on: scheduler) { seen.value >= expected }
        let kinds = wrong.value
        try require(
            kinds.isEmpty, "Schedulers.current was not the scheduler in: \(Set(kinds).sorted().joined(separator: ", "))"
        )
        return ""
    }

    static let noLeak = ConformanceRule(
        id: .k2, family: .currentScheduler,
        evidence: .observed(
            trials: leakRounds,
            trial: "rounds of two schedulers and a raw Dispatch block that might see a leaked current scheduler",
            round: leakRound),
        statement:
            "The current scheduler never leaks: after a task, its thread reads nil again, so another scheduler's task or a raw Dispatch block on the same threads sees the right value.",
        why:
            "Pool threads run many schedulers' tasks and raw work in turn; a stale value makes code believe it runs on a scheduler it does not run on.",
        catches: "A thread-local set without a restore (negative control).",
        requires: .setsCurrent, excludes: .threadConfined
    ) { context in
        let a = context.makeScheduler()
        let b = context.makeScheduler()
        let wrong = Shared<[String]>([])
        let done = Counter()
        @Sendable func expect(_ label: String, _ scheduler: (any Scheduler)?) {
            let current = Schedulers.current
            let right = scheduler.map { current === $0 } ?? (current == nil)
            if !right { wrong.update { $0.append(label) } }
            done.increment()
        }
        try context.observe(leakRounds, inRoundsOf: leakRound) { round in
            context.whileDriven(a) {
                for _ in round {
                    a.schedule { expect("a task of A read another scheduler", a) }
                    b.schedule { expect("a task of B read another scheduler", b) }
                    DispatchQueue.global().async { expect("a raw Dispatch block read a scheduler", nil) }
                    if Schedulers.current != nil {
                        wrong.update { $0.append("the submitting thread read a scheduler after schedule returned") }
                    }
                }
            }
            let reads = round.upperBound * 3
            // Waiting drives A; on virtual time B needs driving too.
            try context.waitUntil("\(grouped(reads)) tasks", on: a) {
                (b as? any VirtualTimeDriver)?.advance(by: .zero)
                return done.value >= reads
            }
            let found = wrong.value
            try require(
                found.isEmpty,
                "\(grouped(found.count)) of \(grouped(reads)) reads were wrong; first: \(found.first ?? "")")
        }
        return ""
    }

    static let nesting = ConformanceRule(
        id: .k3, family: .currentScheduler,
        statement:
            "Hopping A→B→A records [A, B, A], and after each schedule call returns, the caller's current scheduler is what it was before.",
        why:
            "Nested hops, a task on B started from a task on A, must restore A on the way out, or the outer code misjudges where it runs.",
        catches:
            "RAC's immediate scheduler leaves the outer scheduler in place instead of setting itself (seen in its source).",
        requires: .setsCurrent
    ) { context in
        let a = context.makeScheduler()
        let b = context.makeScheduler()
        let outer = OuterMarker()
        let trail = Shared<[String]>([])
        @Sendable func label() -> String {
            let current = Schedulers.current
            if current == nil { return "nil" }
            if current === a { return "A" }
            if current === b { return "B" }
            if current === outer { return "outer" }
            return "another scheduler"
        }
        Schedulers.performAsCurrent(outer) {
            a.schedule {
                trail.record("A")
                b.schedule {
                    trail.record("B")
                    a.schedule { trail.record("A") }
                    trail.record("after → A: \(label())")
                }
                trail.record("after → B: \(label())")
            }
            trail.record("after → A (outside): \(label())")
        }
        try context.waitUntil("the A→B→A chain", on: a) {
            // B's clock moves as A's does (by a millisecond a poll): a virtual scheduler that runs plain work a tick
            // after it is scheduled (RxTest's processing delay, V1's business) still runs the chain.
            (b as? any VirtualTimeDriver)?.advance(by: .milliseconds(1))
            return trail.value.filter { !$0.hasPrefix("after") }.count >= 3
        }
        let hops = trail.value.filter { !$0.hasPrefix("after") }
        let restores = trail.value.filter { $0.hasPrefix("after") }
        // A singleton backend hands out one instance, so there "B" reads as A.
        let expectedRestores = ["after → A (outside): outer", "after → B: A", "after → A: \(b === a ? "A" : "B")"]
        try require(hops == ["A", "B", "A"], "recorded \(hops), expected [A, B, A]")
        let wrong = restores.filter { !expectedRestores.contains($0) }
        try require(wrong.isEmpty, "current not restored: \(wrong.joined(separator: "; "))")
        return ""
    }

    static let noABA = ConformanceRule(
        id: .k4, family: .currentScheduler,
        evidence: .observed(trials: addressCycles, trial: "scheduler lifetimes whose address might be reused"),
        statement:
            "Over 100 create/destroy cycles, a task never sees an earlier (possibly freed) scheduler as current, even at a reused address.",
        why: "An identity check against a freed scheduler whose address was reused would report a false \"current\".",
        catches: "SwiftNIO's testInEventLoopABAProblem guards the same for inEventLoop.",
        requires: .setsCurrent
    ) { context in
        let cycles = addressCycles
        let wrong = Shared<[Int]>([])
        for cycle in 0..<cycles {
            let scheduler = context.makeScheduler()
            let seen = Counter()
            scheduler.schedule {
                if Schedulers.current !== scheduler { wrong.append(cycle) }
                seen.increment()
            }
            try context.waitUntil("the task of cycle \(cycle)", on: scheduler) { seen.value == 1 }
            let raw = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                if Schedulers.current != nil { wrong.append(cycle) }
                raw.signal()
            }
            try require(wait(raw), "a raw Dispatch block did not run within 30 s")
        }
        let found = wrong.value
        try require(
            found.isEmpty,
            "a stale scheduler was current in \(found.count) of \(cycles) cycles (first: cycle \(found.first ?? 0))")
        return ""
    }
}

/// Stands for "some other scheduler's task is running here" in K3; it never runs anything itself.
final class OuterMarker: Scheduler {
    let name = "outer-marker"
    var traits: SchedulerTraits { [] }
    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable { SettledWork.refused }
}

extension Shared where Value == [String] {
    func record(_ element: String) { update { $0.append(element) } }
}

/// K5 and K6: schedulers whose promise is *where* work runs: inline on the caller's stack in one situation, handed
/// over in the other. Both halves are forced: the check puts the caller in each situation itself.
extension CurrentSchedulerRules {
    static let inlineUnderCurrent = ConformanceRule(
        id: .k5, family: .currentScheduler,
        statement:
            "Called from inside a task of another scheduler, it runs the work before schedule returns, on that thread, with that scheduler still current; called where no scheduler is current, it never runs the work on the caller's stack.",
        why:
            "RAC's subscriptionScheduler exists so that subscription side effects stay on the scheduler they were started on, without a hop; and off any scheduler, it must not run them on a thread it does not own.",
        catches:
            "A subscription scheduler that always hops to its background queue (side effects then run later, elsewhere, and the caller's order is lost), or one that always runs inline (blocking the caller's thread).",
        requires: .inlineUnderCurrent
    ) { context in
        let scheduler = context.makeScheduler()
        let host = DispatchQueueScheduler(name: "conformance-host")
        let inside = InsideSchedule()
        let seen = Shared<(onStack: Bool, current: Bool)?>(nil)
        try runAsTask(context, on: host, "a task of another scheduler") {
            inside.call {
                _ = scheduler.schedule {
                    seen.update { $0 = (inside.thisThreadIsInside, Schedulers.current === host) }
                }
            }
        }
        let underCurrent = seen.value
        try require(
            underCurrent != nil,
            "called inside a task of another scheduler, the work had not run when schedule returned")
        try require(
            underCurrent?.current == true,
            "the work ran, but with Schedulers.current no longer the calling task's scheduler")
        let offStack = Shared<Bool?>(nil)
        inside.call {
            _ = scheduler.schedule { offStack.update { $0 = inside.thisThreadIsInside } }
        }
        try context.waitUntil("the work scheduled where no scheduler is current", on: scheduler) {
            offStack.value != nil
        }
        try require(
            offStack.value == false, "called where no scheduler is current, it ran the work on the caller's stack")
        return ""
    }

    static let inlineOnMainQueue = ConformanceRule(
        id: .k6, family: .currentScheduler,
        statement:
            "Called on the main queue with none of its work outstanding, it runs the work before schedule returns, and the caller's current scheduler is current again afterwards; called from another thread, or from inside one of its own tasks, it queues the work on the main queue (never on the caller's stack).",
        why:
            "UI code already on the main thread must see its work done before schedule returns, or a frame shows stale state; work from elsewhere must still reach the main thread, in order.",
        catches:
            "ReactiveX/RxSwift#2704 (MainScheduler's inline fast path); a main scheduler that always queues passes every other rule.",
        requires: .inlineOnMainQueue
    ) { context in
        let scheduler = context.makeScheduler()
        let inside = InsideSchedule()
        let ranInline = Shared<Bool?>(nil)
        let nested = Shared<(onStack: Bool, main: Bool)?>(nil)
        let ranAgainInline = Shared<Bool?>(nil)
        let outerRestored = Shared<Bool?>(nil)
        DispatchQueue.main.async {
            // Inline under another current scheduler: that one is current again once schedule returns (K3's
            // promise, on the one path where this scheduler runs work on the caller's stack).
            let outer = OuterMarker()
            let restored = Schedulers.performAsCurrent(outer) { () -> Bool in
                _ = scheduler.schedule {}
                return Schedulers.current === outer
            }
            outerRestored.update { $0 = restored }
            // Twice in a row: the first call's work has run, so nothing is outstanding for the second either.
            let twice = Counter()
            for _ in 0..<2 { _ = scheduler.schedule { twice.increment() } }
            let again = twice.value == 2
            ranAgainInline.update { $0 = again }
            let ran = Counter()
            inside.call {
                _ = scheduler.schedule {
                    ran.increment()
                    // From inside its own task: queued, not run on this stack.
                    inside.call {
                        _ = scheduler.schedule {
                            nested.update { $0 = (inside.thisThreadIsInside, MainThreadScheduler.isOnMainQueue) }
                        }
                    }
                }
            }
            let inline = ran.value == 1
            ranInline.update { $0 = inline }
        }
        try context.waitUntil("a block on the main queue (is the main queue served?)", on: scheduler) {
            ranInline.value != nil && nested.value != nil
        }
        try require(
            ranInline.value == true,
            "called on the main queue with nothing of its own outstanding, the work had not run when schedule returned")
        try require(
            ranAgainInline.value == true,
            "called twice on the main queue, the second call's work had not run when schedule returned (the first left work outstanding)"
        )
        try require(
            outerRestored.value == true,
            "run inline under another current scheduler, it left Schedulers.current changed when schedule returned")
        try require(
            nested.value?.onStack == false, "called from inside its own task, it ran the work on that task's stack")
        try require(nested.value?.main == true, "work queued from inside its own task ran off the main queue")
        let fromElsewhere = Shared<(onStack: Bool, main: Bool)?>(nil)
        inside.call {
            _ = scheduler.schedule {
                fromElsewhere.update { $0 = (inside.thisThreadIsInside, MainThreadScheduler.isOnMainQueue) }
            }
        }
        try context.waitUntil("work scheduled from another thread", on: scheduler) { fromElsewhere.value != nil }
        try require(
            fromElsewhere.value?.onStack == false, "called from another thread, it ran the work on the caller's stack")
        try require(fromElsewhere.value?.main == true, "called from another thread, the work ran off the main queue")
        return ""
    }
}
