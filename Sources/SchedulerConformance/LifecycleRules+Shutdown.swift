import Foundation
import SchedulerKit
import Synchronization
import ToolSupport

/// L6: nothing starts once shutdown has begun, and every task of a batch a worker took settles.
extension LifecycleRules {
    static let nothingStartsAfterShutdown = ConformanceRule(
        id: .l6, family: .lifecycle,
        evidence: .mixed(
            forced: "100 tasks queued behind a task that lasts until shutdown has begun",
            trials: shutdownRaceSubmissions, trial: "submissions from 4 threads around a shutdown that might start late"
        ),
        statement:
            "Once shutdown() has begun, no task that has not started starts, also one in a batch a worker has already taken: of 100 tasks queued behind a task that lasts until shutdown, and 10 000 more from 4 threads, at most one per thread starts after isShutDown turns true (one a worker was already starting), and each of the 100 ends as ran or as cancelled, never neither.",
        why:
            "Shutdown is how a caller stops work it no longer wants (a closed connection, a torn-down screen); tasks that still start afterwards touch state that is being torn down.",
        catches:
            "ThreadPool finished the batch of up to 128 tasks a worker had taken: 101 to 246 tasks started after shutdown() in 3 of 5 trials (negative control: shutdown lets queued work run). A worker that takes the next task of its batch and only then sees shutdown, and drops it (negative control).",
        requires: .shutdown
    ) { context in
        let scheduler = try makeShutdownScheduler(context)
        let startedLate = Shared([UInt: Int]())
        let record: @Sendable () -> Void = {
            if scheduler.isShutDown { startedLate.update { $0[currentThreadID(), default: 0] += 1 } }
        }
        // A holder keeps the scheduler busy until the gate and the tasks behind it are queued, so they go into one
        // batch; the gate then lasts until shutdown has begun.
        let queued = Atomic<Bool>(false)
        let gateStarted = Atomic<Bool>(false)
        scheduler.schedule { poll(upTo: .seconds(30)) { queued.load(ordering: .acquiring) } }
        scheduler.schedule {
            gateStarted.store(true, ordering: .releasing)
            poll(upTo: .seconds(30)) { scheduler.isShutDown }
        }
        let behind = 100
        let ranBehind = Shared([Bool](repeating: false, count: behind))
        let handlesBehind = (0..<behind).map { index in
            scheduler.schedule {
                ranBehind.update { $0[index] = true }
                record()
            }
        }
        queued.store(true, ordering: .releasing)
        poll(upTo: .seconds(30)) { gateStarted.load(ordering: .acquiring) }
        try require(gateStarted.load(ordering: .acquiring), "the gate task did not start within 30 s")
        let shutdownReturned = DispatchSemaphore(value: 0)
        Producers.run(4) { producer in
            for index in 0..<2_500 {
                scheduler.schedule(record)
                if producer == 0 && index == 1_000 {
                    scheduler.shutdown()
                    shutdownReturned.signal()
                }
            }
        }
        try require(wait(shutdownReturned), "shutdown() did not return within 30 s")
        usleep(20_000)
        // Each task of the taken batch settles: a worker that takes one more from the batch after shutdown has begun
        // must run it or cancel it, never drop it (its caller would wait for ever).
        let ran = ranBehind.value
        let unsettled = (0..<behind).filter { ran[$0] == handlesBehind[$0].isCancelled }
        try require(
            unsettled.isEmpty,
            "of the \(behind) tasks queued behind the one that lasted until shutdown, \(unsettled.count) neither ran nor were cancelled, or both (the first: task \(unsettled.first.map { $0 + 1 } ?? 0))"
        )
        let late = startedLate.value
        let worst = late.values.max() ?? 0
        try require(
            worst <= 1,
            "\(late.values.reduce(0, +)) tasks started after shutdown had begun, up to \(worst) on one thread (\(late.count) threads)"
        )
        return "\(late.values.reduce(0, +)) started as shutdown began, on \(late.count) threads"
    }
}
