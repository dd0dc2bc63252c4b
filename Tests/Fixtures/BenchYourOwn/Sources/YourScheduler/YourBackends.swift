import SchedulerBench
import SchedulerConformance
import SchedulerKit

// How the package describes its scheduler: once. The kit judges that description (`evaluate`), and the bench
// measures it (`Backend.subject`), in its tests and its executable alike.

extension ConformanceBackend {
    /// A serial scheduler over a private `DispatchQueue`.
    public static let queueScheduler = ConformanceBackend(
        id: "queue-scheduler", name: "QueueScheduler",
        summary: "QueueScheduler: a private serial DispatchQueue with a truthful cancel",
        traits: QueueScheduler.traits
    ) { _ in
        ConformanceSession(makeNamedScheduler: { QueueScheduler(name: $0) })
    }

    /// A virtual-time scheduler of the package's own. The kit drives it through its `VirtualTimeDriver` conformance,
    /// and so does the bench in every workload that drains.
    public static let stepScheduler = ConformanceBackend(
        id: "step-scheduler", name: "StepScheduler", summary: "StepScheduler: virtual time in an array, in due order",
        traits: StepScheduler.traits
    ) { _ in
        ConformanceSession(makeNamedScheduler: { StepScheduler(name: $0) })
    }
}

extension Backend {
    /// The bench's lanes: the same descriptions, not second ones, each reported beside what it wraps or stands in
    /// for (a scheduler's id, typed): raw `DispatchQueue.async`, and SchedulerKit's `TestScheduler`.
    public static let queueScheduler = Backend.subject(.queueScheduler, harness: BenchHarness(wraps: .rawDispatch))
    public static let stepScheduler = Backend.subject(
        .stepScheduler, harness: BenchHarness(wraps: ConformanceBackend.testScheduler.id))
}

extension BackendID {
    /// The `backend` column of their rows: the descriptions' ids, one identity for the kit and the bench.
    public static let queueScheduler = ConformanceBackend.queueScheduler.id
    public static let stepScheduler = ConformanceBackend.stepScheduler.id
}

extension ClockSubject {
    /// The package's own clock as a subject of the kit's clock rules.
    public static let uptimeClock = ClockSubject(name: "UptimeClock", summary: "CLOCK_MONOTONIC, read directly") {
        ClockUnderTest(UptimeClock())
    }
}

extension ExecutorSubject {
    /// The package's own executor as a subject of the kit's executor rules.
    public static let serialQueueExecutor = ExecutorSubject(
        name: "SerialQueueExecutor", summary: "a private serial DispatchQueue"
    ) {
        ExecutorUnderTest(serial: SerialQueueExecutor())
    }
}
