import Foundation

/// One probe per mutant of Tests/Mutants/fresh-2026-12, by the mutant's number and name.
let probes: [(String, () -> Void)] = [
    ("01-time-duration-sign-reversed", probeDurationSign),
    ("02-time-coarse-monotonic-clock", probeCoarseClock),
    ("03-recursion-owed-steps-coalesced", probeRecursionOwedSteps),
    ("04-recursion-one-step-only-on-concurrent", probeRecursionNonSerial),
    ("05-repeating-iscancelled-false-in-cancelled-tick", probeRepeatingIsCancelled),
    ("06-scheduledwork-hasstarted-false-while-running", probeHasStarted),
    ("07-refused-handle-not-cancelled", probeRefusedHandle),
    ("08-pool-turn-runs-work-pushed-during-it", probePoolTurnBoundary),
    ("09-pool-spinner-sleeps-without-recheck", probeSpinnerRecheck),
    ("10-pool-concurrent-default-width-one", probeConcurrentDefaultWidth),
    ("11-pool-concurrent-batch-limit-leaks-slot", probeConcurrentSlotLeak),
    ("12-dispatch-target-queue-ignored", probeDispatchTarget),
    ("13-concurrent-dispatch-width-one-short", probeConcurrentDispatchWidth),
    ("14-executor-accepts-non-serial", probeExecutorAcceptsConcurrent),
    ("15-pooled-makes-a-pool-each", probePooledSharedPool),
    ("16-subscription-made-per-access", probeSubscriptionShared),
    ("17-current-not-restored-on-throw", probeCurrentRestoredOnThrow),
    ("18-immediate-nested-work-uncancellable", probeImmediateNestedCancel),
    ("19-thread-name-loses-worker-number", probeThreadName),
    ("20-explore-trace-choice-zero-based", probeTraceChoice),
    ("21-explore-distinct-counts-steps", probeDistinctSchedules),
    ("22-explore-tasks-left-names-last-schedule", probeTasksLeftFirst),
    ("23-explore-failure-schedules-one-short", probeFailureScheduleCount),
    ("24-explore-step-limit-one-late", probeStepLimit),
    ("25-explore-wind-down-before-cancel", probeWindDownCancels),
    ("26-explore-left-sleeper-shown-ready", probeLeftSleeperWait),
    ("27-explore-outside-wait-defaults-swapped", probeOutsideWaitDefault),
    ("28-free-running-stop-keeps-queued-work", probeFreeRunningStop),
    ("29-nio-pool-shutdown-does-not-wait", probeNIOPoolShutdownWaits),
    ("30-nio-pool-isshutdown-misses-shutdown", probeNIOPoolIsShutDown),
    ("31-nio-delayed-cancel-not-forwarded", probeNIODelayedCancel),
    ("32-nio-pool-serial-at-any-width", probeNIOPoolSerialTrait),
    ("33-combine-repeating-cancel-does-nothing", probeCombineRepeatingCancel),
    ("34-combine-time-saturates-to-zero", probeCombineSaturation),
    // Findings in the unmutated code: these print BUG without any patch.
    ("real-a-nio-shutdown-from-pool-thread-hangs", probeRealNIOShutdownFromPoolThread),
    ("real-b-stride-seconds-max-traps", probeRealStrideSecondsMax),
]

let name = CommandLine.arguments.dropFirst().first ?? "list"
if name.hasPrefix("real-b-child-") {
    realStrideChild(String(name.dropFirst("real-b-child-".count)))
    exit(0)
}
let chosen = probes.filter { $0.0 == name || $0.0.hasPrefix(name + "-") || (name == "all" && !$0.0.hasPrefix("real-")) }
if chosen.isEmpty {
    print("probes: all, or one of:\n" + probes.map { "  " + $0.0 }.joined(separator: "\n"))
    exit(name == "list" ? 0 : 2)
}
for (probeName, probe) in chosen {
    print("== \(probeName)")
    fflush(nil)
    probe()
}
exit(exitStatus)
