import SchedulerBench
import SchedulerConformance
import SchedulerKit

// How the package describes its scheduler to the kit and to the bench: once each, used by its tests and its
// executable alike.

extension ConformanceBackend {
    public static let queueScheduler = ConformanceBackend(name: "QueueScheduler") { QueueScheduler(name: "kit") }
}

extension BackendID {
    public static let queueScheduler = BackendID(rawValue: "queue-scheduler")
}

extension Backend {
    /// Compared with raw `DispatchQueue.async`, the primitive it wraps.
    public static let queueScheduler = Backend.custom(
        .queueScheduler, summary: "QueueScheduler: a private serial DispatchQueue with a truthful cancel",
        traits: QueueScheduler.traits, comparedWith: .rawDispatch
    ) {
        BackendInstance { QueueScheduler(name: $0) }
    }
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
