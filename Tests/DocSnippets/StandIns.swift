import Dispatch
import SchedulerConformance
import SchedulerKit

// What the documentation's snippets assume a reader has: their own scheduler, executor and clock. Small, correct
// stand-ins, so that each snippet compiles as written (DocSnippetsTests checks that every snippet is here).

/// "Your scheduler": a private serial DispatchQueue with a truthful cancel.
final class MyScheduler: Scheduler {
    let name: String
    private let queue: DispatchQueue
    init(name: String = "my-scheduler") {
        self.name = name
        queue = DispatchQueue(label: name)
    }
    static let traits: SchedulerTraits = [.serial, .asynchronous, .setsCurrent]
    var traits: SchedulerTraits { Self.traits }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let gate = StartGate(work)
        queue.async { [self] in
            if let work = gate.start() { Schedulers.performAsCurrent(self, work) }
        }
        return gate
    }
}

/// "Your executor": jobs on a private serial queue.
final class MyExecutor: SerialExecutor {
    private let queue = DispatchQueue(label: "my-executor")
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { [self] in job.runSynchronously(on: asUnownedSerialExecutor()) }
    }
    func shutdown() {}
}

/// "Your clock": CLOCK_MONOTONIC, read directly, through the standard library's `ContinuousClock`.
struct UptimeClock: Clock {
    var now: ContinuousClock.Instant { ContinuousClock.now }
    var minimumResolution: Duration { ContinuousClock().minimumResolution }
    func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
        try await ContinuousClock().sleep(until: deadline, tolerance: tolerance)
    }
}

/// The backend most snippets judge.
let mine = ConformanceBackend(name: "MyScheduler") { MyScheduler() }
