import Foundation
import SchedulerConformance
import SchedulerKit
import Testing

/// A deliberately broken scheduler and the rules it must fail.
///
/// A control runs against every rule of the family it targets, plus the other rules listed for it. Each of those
/// must fail if in `mustFail`, and otherwise pass (or be declared or n/a), except the few in `mayFail` whose
/// checks catch the defect only when a race goes a certain way. Rules of other families are not run on a control:
/// each control is a correct backend with one defect, and the built-in backends already cover the rest.
struct NegativeControl: Sendable, CustomTestStringConvertible {
    let backend: ConformanceBackend
    let family: RuleFamily
    let mustFail: Set<RuleID>
    let mayFail: Set<RuleID>
    /// Rules whose check would make ThreadSanitizer report the control's own race (the process would then fail).
    var notUnderThreadSanitizer: Set<RuleID> = []
    /// For a control whose defect makes its must-fail check wait out the kit's generous waits (60 s and more): the
    /// deadline it is judged with, so it fails as not finished, with what it waited on, in seconds instead.
    var mustFailDeadline: Duration? = nil

    var testDescription: String { backend.name }

    static let all: [NegativeControl] = [
        NegativeControl(
            backend: ConformanceBackend(name: "Control: RAC-style cancel flag") { RACStyleCancelScheduler() },
            family: .cancellation, mustFail: [.c2, .c3, .c4], mayFail: []),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: run() says stopped early when drained") {
                PlantedVirtualScheduler(defect: .runSaysStoppedEarlyWhenDrained)
            },
            // One of M1's six planted bugs (ProgramCheckerTests judges all six, and how they shrink and replay).
            family: .model, mustFail: [.m1], mayFail: []),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: check-then-act cancel") { CheckThenActCancelScheduler() },
            // C2's race finds the lie; C4 finds the closure its queued block keeps until the queue reaches it. The
            // other C rules cancel before the task is reached, or after it ran.
            family: .cancellation, mustFail: [.c2, .c4], mayFail: [.c3]),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: disposed flag, checked then acted on") {
                DisposedFlagScheduler()
            },
            // The window is a few instructions: C2's staircase finds it; C4 finds the closure its queued block keeps.
            family: .cancellation, mustFail: [.c2, .c4], mayFail: [.c3]),
        NegativeControl(
            backend: ConformanceBackend(
                name: "Control: sometimes concurrent",
                declarations: [
                    .s6:
                        "a Dispatch serial queue underneath: Dispatch keeps draining a busy serial queue (see DispatchQueueScheduler)"
                ]
            ) { SometimesConcurrentScheduler() },
            // S3/S4 catch it only when a bypassing task actually overtakes or races: nearly always, not provably.
            family: .serial, mustFail: [.s1, .s2], mayFail: [.s3, .s4], notUnderThreadSanitizer: [.s4]),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: greedy shared thread") { GreedySharedThreadScheduler() },
            family: .serial, mustFail: [.s6], mayFail: []),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: leaky current scheduler") { LeakyCurrentScheduler() },
            family: .currentScheduler, mustFail: [.k2, .k3], mayFail: []),
        NegativeControl(
            backend: ConformanceBackend(
                name: "Control: recursing on the stack",
                declarations: [
                    .s1: "runs inline on each caller's thread", .s4: "runs inline on each caller's thread",
                ]
            ) { StackRecursingScheduler() },
            // Nested work has already run when the scheduling task tries to cancel it (C1, C4).
            family: .recursion, mustFail: [.r1, .r2, .r3, .r4, .c1, .c4], mayFail: []),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: delayed work marked started after it ran") {
                LateStartMarkScheduler()
            },
            // C3 forces it (a cancel while the delayed task runs); a cancel racing the start (C2) and a program's
            // self-cancel of delayed work (M1) meet it too.
            family: .cancellation, mustFail: [.c3], mayFail: [.c2, .m1]),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: early timers") { EarlyTimerScheduler() },
            // T8 asks one delayed task through Combine: 5 ms early is seen unless the timer is 5 ms late too.
            family: .time, mustFail: [.t1], mayFail: [.t8]),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: stranding hand-off") { StrandingHandOffScheduler() },
            family: .progress, mustFail: [.g1], mayFail: []),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: concurrent, a wake-up not passed on") {
                LazyWakeConcurrentScheduler()
            },
            family: .progress, mustFail: [.g1], mayFail: []),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: timer not re-armed for a nearer deadline") {
                UnrearmedTimerScheduler()
            },
            family: .progress, mustFail: [.g2], mayFail: []),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: timer sources that keep their scheduler") {
                SourceKeepingScheduler()
            },
            // A cancelled repeating source runs on, holding its closure (C6 too).
            family: .leftBehind, mustFail: [.n1, .c6], mayFail: []),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: ticks queued past their cancel") { QueuedTickScheduler() },
            family: .leftBehind, mustFail: [.n2], mayFail: []),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: run() moves the clock to a dead deadline") {
                DeadDeadlineVirtualScheduler()
            },
            family: .leftBehind, mustFail: [.n3], mayFail: []),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: ties out of order", pendingWorkOnRelease: .dropped) {
                TieReversingVirtualClock()
            },
            // Plain work is due "now", so reversed ties also reverse plain FIFO (S2, S3, T3).
            family: .virtualTime, mustFail: [.v2, .v6, .v9, .t3, .t4, .s2, .s3], mayFail: []),
        NegativeControl(
            backend: ConformanceBackend(
                name: "Control: step runs past a tick that ends", pendingWorkOnRelease: .dropped
            ) {
                TieReversingVirtualClock(reversesTies: false, countsTicksThatEnd: false)
            },
            family: .virtualTime, mustFail: [.v4], mayFail: []),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: advance goes back", pendingWorkOnRelease: .dropped) {
                TieReversingVirtualClock(reversesTies: false, advancesBackwards: true)
            },
            family: .virtualTime, mustFail: [.v5], mayFail: []),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: wall-clock time") { WallClockScheduler() },
            family: .time, mustFail: [.t2], mayFail: []),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: subscription always hops") {
                AlwaysHoppingSubscriptionScheduler()
            },
            family: .currentScheduler, mustFail: [.k5], mayFail: []),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: main always queues") { AlwaysQueueingMainScheduler() },
            family: .currentScheduler, mustFail: [.k6], mayFail: []),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: ticks without the current scheduler") {
                TicksWithoutCurrentScheduler()
            },
            family: .currentScheduler, mustFail: [.k1], mayFail: []),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: concurrent executor") { ConcurrentExecutorScheduler() },
            // Jobs enqueued from one thread start in order but may finish out of order (E3), and a job enqueued
            // from inside another may run beside the rest of it (E5): caught only by a race.
            family: .executor, mustFail: [.e1], mayFail: [.e3, .e5]),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: shutdown drops work") { DroppingShutdownScheduler() },
            // L6 forces it: the 100 tasks queued behind one that lasts until shutdown are dropped, not cancelled.
            family: .lifecycle, mustFail: [.l1, .l2, .l6], mayFail: []),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: shutdown lets queued work run") { LateShutdownScheduler() },
            family: .lifecycle, mustFail: [.l6], mayFail: []),
        NegativeControl(
            backend: ConformanceBackend(
                name: "Control: global queue posing as serial",
                declarations: [.s6: "the global queue underneath has no per-scheduler queue to be fair about"]
            ) { GlobalQueueAsSerialScheduler() },
            // Only S1 forces the overlap; the others see it when tasks happen to overtake or race.
            family: .serial, mustFail: [.s1], mayFail: [.s2, .s3, .s4], notUnderThreadSanitizer: [.s4]),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: serial posing as concurrent") { SerialAsConcurrentScheduler() },
            family: .parallelism, mustFail: [.p1], mayFail: []),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: width exceeded") { WidthExceedingScheduler() },
            family: .parallelism, mustFail: [.p2], mayFail: []),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: starts the newest first") { StackStartingScheduler() },
            family: .parallelism, mustFail: [.p6], mayFail: []),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: repeating ticks overlap") { OverlappingTicksScheduler() },
            // A Dispatch concurrent queue underneath: it may run more than the declared width when tasks block.
            family: .parallelism, mustFail: [.p4], mayFail: [.p2]),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: a backlog split over two threads") {
                BacklogSplittingScheduler()
            },
            // S1 and S2 flood it too, and see the overlap when it shows in what they watch; S3's ping-pong never
            // builds a backlog. S4's lost increments are a data race by design.
            family: .serial, mustFail: [.s4], mayFail: [.s1, .s2, .s3], notUnderThreadSanitizer: [.s4]),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: nested work runs inline") { NestedInlineScheduler() },
            family: .serial, mustFail: [.s5], mayFail: []),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: dropping a repeating handle cancels it") {
                DroppingHandleScheduler()
            },
            family: .cancellation, mustFail: [.c5], mayFail: [], mustFailDeadline: .seconds(10)),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: ticks re-armed after the action") { RearmingTicksScheduler() },
            family: .cancellation, mustFail: [.c6], mayFail: []),
        NegativeControl(
            backend: RecycledThreadScheduler.backend, family: .currentScheduler, mustFail: [.k4], mayFail: []),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: timers hold plain work back") { HeadOfLineTimerScheduler() },
            family: .time, mustFail: [.t5], mayFail: [], mustFailDeadline: .seconds(10)),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: fixed-delay ticks") { FixedDelayScheduler() },
            family: .time, mustFail: [.t6], mayFail: []),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: immediate pretending to be timed") {
                PretendingImmediateScheduler()
            },
            family: .time, mustFail: [.t7], mayFail: []),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: delayed work at once") { DeadlineIgnoringScheduler() },
            family: .time, mustFail: [.t1, .t8], mayFail: []),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: plain work runs at once", pendingWorkOnRelease: .dropped) {
                VirtualDefectClock(.plainWorkRunsAtOnce)
            },
            family: .virtualTime, mustFail: [.v1], mayFail: []),
        NegativeControl(
            backend: ConformanceBackend(
                name: "Control: work added during an advance waits", pendingWorkOnRelease: .dropped
            ) {
                VirtualDefectClock(.workAddedDuringAdvanceWaits)
            },
            family: .virtualTime, mustFail: [.v3], mayFail: []),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: run says drained", pendingWorkOnRelease: .dropped) {
                VirtualDefectClock(.runAlwaysSaysDrained)
            },
            family: .virtualTime, mustFail: [.v7], mayFail: []),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: actions run under the lock", pendingWorkOnRelease: .dropped) {
                LockedActionsVirtualClock()
            },
            // Caught as not finished: each of V8's 20 actions waits 5 s for a thread the lock holds back.
            family: .virtualTime, mustFail: [.v8], mayFail: [], mustFailDeadline: .seconds(10)),
        NegativeControl(
            backend: ShutdownDefectScheduler.backend(
                .ignoredFromOwnTask, name: "Control: shutdown from its own task ignored"),
            family: .lifecycle, mustFail: [.l3], mayFail: []),
        NegativeControl(
            backend: ShutdownDefectScheduler.backend(.timersOutsideThePool, name: "Control: timers outside the pool"),
            // L1 counts delayed work too: a task still on its Dispatch timer when L1 counts has neither run nor been
            // cancelled, the same defect, seen when the timers have not fired yet (once in 21 runs).
            family: .lifecycle, mustFail: [.l4], mayFail: [.l1]),
        NegativeControl(
            backend: ShutdownDefectScheduler.backend(
                .repetitionOutlivesShutdown, name: "Control: a repetition outlives its pool's shutdown"),
            family: .lifecycle, mustFail: [.l7], mayFail: []),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: housekeeping timer keeps the scheduler") {
                SelfRetainingScheduler()
            },
            family: .lifecycle, mustFail: [.l5], mayFail: []),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: wrapped scheduler current") { WrappedCurrentScheduler() },
            // The wrong scheduler is current in every job, which E1's forced part checks too.
            family: .executor, mustFail: [.e1, .e2], mayFail: []),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: batches newest first") { NewestFirstBatchScheduler() },
            family: .executor, mustFail: [.e3], mayFail: []),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: run slots keep their closures") { LazyCompactingScheduler() },
            family: .executor, mustFail: [.e4], mayFail: [], mustFailDeadline: .seconds(10)),
        NegativeControl(
            backend: ConformanceBackend(name: "Control: nested jobs run inline") { NestedInlineScheduler() },
            // It claims to run work later, yet runs work scheduled from inside its own task on that task's stack:
            // E5 sees the nested job, E6 an executor built over a scheduler that runs work inline.
            family: .executor, mustFail: [.e5, .e6], mayFail: []),
        NegativeControl(
            backend: PoolDefectScheduler.backend(.wrapRunsTwice, name: "Control: a ring wrap runs a task twice"),
            // P2 submits 20 000 tasks whatever the scale: where the ring is scaled down (a tenth, under
            // ThreadSanitizer) the wrap comes within them, and P2 counts one task too many (the same defect).
            family: .parallelism, mustFail: [.p3], mayFail: [.p2]),
        NegativeControl(
            backend: PoolDefectScheduler.backend(.cancelOnlyFlags, name: "Control: cancel only flags"),
            family: .parallelism, mustFail: [.p5], mayFail: []),
    ]

    /// Scheduler rules no negative control must fail, each with why no plausible defect fails it every run.
    static let unforceable: [RuleID: String] = [
        .s7:
            "S7 is a permission: it fails a scheduler that waits for work one of its tasks handed to Dispatch's global queue and did not wait for. That work never passes through the scheduler, so no defect of a scheduler makes it wait for it; only a scheduler sharing a bounded pool with Dispatch's global queue could be held up by it, and libdispatch brings up another thread when one of its blocks blocks."
    ]

    /// The rules this control runs: its family, plus every rule it is listed to fail.
    func runs(_ rule: ConformanceRule) -> Bool {
        rule.family == family || mustFail.contains(rule.id) || mayFail.contains(rule.id)
    }

    /// (control, rule) pairs that run; not-applicable ones are left out, and so are the rules that
    /// `SCHEDULERKIT_CONTROL_RULES` (e.g. `C2,C3`) does not list, when it is set: to repeat only the rules a change
    /// touched 20 times.
    static var cases: [NegativeControlCase] {
        all.flatMap { control in
            ConformanceRules.all.compactMap { rule in
                guard control.runs(rule), control.backend.outcomeWithoutRunning(rule) != .notApplicable,
                    controlRulesListed(rule.id)
                else {
                    return nil
                }
                return NegativeControlCase(control: control, rule: rule)
            }
        }
    }
}

/// Whether `rule`'s control cases run: every rule's, or only those `SCHEDULERKIT_CONTROL_RULES` (e.g. `C2,X1`)
/// lists, when it is set, for scheduler, clock and executor controls alike.
func controlRulesListed(_ rule: RuleID) -> Bool {
    guard let text = ProcessInfo.processInfo.environment["SCHEDULERKIT_CONTROL_RULES"] else { return true }
    return text.split(separator: ",").compactMap { RuleID($0.trimmingCharacters(in: .whitespaces)) }.contains(rule)
}

/// How often each must-fail and must-not-fail case runs: 1, or `SCHEDULERKIT_CONTROL_RUNS` (e.g. 20, to show a rule
/// catches its fault every time, and that the control breaks nothing else in any run).
let controlRuns = max(1, Int(ProcessInfo.processInfo.environment["SCHEDULERKIT_CONTROL_RUNS"] ?? "") ?? 1)

struct NegativeControlCase: Sendable, CustomTestStringConvertible {
    let control: NegativeControl
    let rule: ConformanceRule

    var testDescription: String {
        let expectation =
            control.mustFail.contains(rule.id)
            ? "must fail"
            : control.mayFail.contains(rule.id) ? "may fail" : "must not fail"
        return "\(rule.id) · \(control.backend.name) (\(expectation))"
    }
}

extension Conformance {
    @Suite struct NegativeControls {
        @Test("A broken scheduler fails exactly the rules it breaks", arguments: NegativeControl.cases)
        func control(_ pair: NegativeControlCase) {
            let control = pair.control
            let rule = pair.rule
            if threadSanitizerIsActive && control.notUnderThreadSanitizer.contains(rule.id) {
                // The race is the point of this control; under TSan it would be reported as the process's own failure.
                // Recorded as a known issue, so the case shows up as not run instead of passing quietly.
                withKnownIssue("\(rule.id) · \(control.backend.name) is not run under ThreadSanitizer") {
                    Issue.record("skipped: the control's data race would be reported by ThreadSanitizer")
                }
                return
            }
            if control.mustFail.contains(rule.id) {
                // SCHEDULERKIT_CONTROL_RUNS=20 repeats each must-fail case and prints the count ("fails every time").
                let runs = controlRuns
                var failed = 0
                var last = RuleOutcome.notApplicable
                for _ in 0..<runs {
                    last = control.backend.evaluate(rule, deadline: control.mustFailDeadline).outcome
                    if last.isFailure { failed += 1 }
                }
                if runs > 1 {
                    let detail = if case .failed(let detail) = last { ": last: \(detail.prefix(300))" } else { "" }
                    print(
                        "negative control: \(rule.id) · \(control.backend.name) failed \(failed) of \(runs) runs\(detail)"
                    )
                }
                #expect(
                    failed == runs,
                    "\(rule.id) · \(control.backend.name) should fail every run but failed \(failed) of \(runs) (last: \(last.label))"
                )
                return
            }
            guard !control.mayFail.contains(rule.id) else {
                _ = control.backend.evaluate(rule)
                return
            }
            // Repeated too, so that a must-not-fail case that fails only sometimes shows in the count.
            var failures: [RuleOutcome] = []
            for _ in 0..<controlRuns {
                let outcome = control.backend.evaluate(rule).outcome
                if outcome.isFailure { failures.append(outcome) }
            }
            if controlRuns > 1 {
                print(
                    "negative control: \(rule.id) · \(control.backend.name) (must not fail) failed \(failures.count) of \(controlRuns) runs"
                )
            }
            for outcome in failures {
                #expect(!outcome.isFailure, "\(rule.id) · \(control.backend.name): \(outcome.detail)")
            }
        }

        @Test("Every scheduler rule has a negative control that must fail it, or says why none can")
        func everyRuleCovered() {
            let failed = Set(NegativeControl.all.flatMap(\.mustFail))
            for rule in ConformanceRules.rules(for: .scheduler) where !failed.contains(rule.id) {
                #expect(
                    NegativeControl.unforceable[rule.id] != nil,
                    "rule \(rule.id) has no negative control that must fail it, and no reason why none can")
            }
            for (id, _) in NegativeControl.unforceable {
                #expect(ConformanceRules.rule(id) != nil, "unforceable lists \(id), which is no rule")
                #expect(!failed.contains(id), "unforceable lists \(id), which a negative control must fail")
            }
        }
    }
}
