import SchedulerKit
import ToolSupport

extension Workload {
    /// W7: every task is cancelled right after `schedule` returns (`cancelled_pct=100`: the cost of a
    /// schedule+cancel pair, as seen by the caller), or every other one (`cancelled_pct=50`: throughput until every
    /// surviving task has run). Truthful cancel makes the count exact: a task runs ⇔ its cancel returned false.
    static let cancellation = Workload(
        id: .cancellation, name: "cancel",
        summary: "schedule+cancel cost, and throughput with half the tasks cancelled",
        requires: [.scheduler, .cancellation], metrics: [.nsPerTask],
        configurations: { scale in
            [100, 50].map {
                Parameters([.cancelledPercent: $0, .tasks: scale.size(full: 25_000, quick: 10_000, smoke: 200)])
            }
        }
    ) { lanes, _, parameters in
        let (tasks, everyOther) = (parameters[.tasks], parameters[.cancelledPercent] == 50)
        let lane = lanes.lane("w7")
        let scheduler = lane.scheduler!
        let done = Countdown(tasks)
        let start = Clock.now()
        for index in 0..<tasks {
            let handle = scheduler.schedule { done.tick() }
            if (!everyOther || index.isMultiple(of: 2)) && handle.cancel() { done.tick() }
        }
        let submitted = Clock.now()
        lane.drain()
        done.wait()
        return RoundResult(values: [
            .nsPerTask: nanosecondsPer(tasks, from: start, to: everyOther ? Clock.now() : submitted)
        ])
    }

    /// W9: allocations and bytes per scheduled task, and resident memory with `queued` tasks waiting.
    ///
    /// An asynchronous lane is first held by blocking tasks (one per worker: ``LaneGate``), so that all `queued` tasks wait in the queue while the
    /// producing thread's allocations are counted (exactly: see ``AllocationCount``) and the peak RSS is read; then
    /// the gate opens and the queue drains. Inline lanes run each task at once and have nothing queued.
    ///
    /// A concurrent lane can grow while it is held: Dispatch on Linux adds a worker to a pool whose workers all
    /// block, and that worker runs tasks while the producer still submits (Dispatch's W9 then read 2.9 allocations a
    /// task instead of 2.04, in 2 of 6 runs). So an attempt counts only if no task ran while it was counted; after
    /// one that saw a task run, the next attempt holds the lane with one blocker more.
    static let allocations = Workload(
        id: .allocations, name: "allocations",
        summary: "allocations and bytes per task; peak RSS with 1 000 000 queued tasks",
        requires: [], metrics: [.allocsPerTask, .bytesPerTask, .peakRSSGrowth, .rssPerQueuedTask],
        measuredOnce: true,
        configurations: { [Parameters([.queued: $0.size(full: 1_000_000, quick: 100_000, smoke: 200)])] }
    ) { lanes, backend, parameters in
        let lane = lanes.lane("w9")
        var workers = backend.has(.concurrent) ? Clock.cores : 1
        for _ in 1..<QueuedCount.attempts {
            let attempt = QueuedCount.measure(lane, backend.capabilities, queued: parameters[.queued], workers: workers)
            if attempt.heldEveryTask { return attempt.result }
            workers += 1
        }
        return QueuedCount.measure(lane, backend.capabilities, queued: parameters[.queued], workers: workers).result
    }
}

/// One attempt of W9: `queued` tasks submitted behind a closed gate, counted, then released.
struct QueuedCount {
    /// Attempts before W9 reports what the last one counted, tasks run or not.
    static let attempts = 4

    var result: RoundResult
    /// Whether every task still waited when the count ended (always, for an inline lane: none waits).
    var heldEveryTask: Bool

    static func measure(_ lane: any Lane, _ capabilities: Capabilities, queued: Int, workers: Int) -> QueuedCount {
        let gate = capabilities.contains(.asynchronous) ? LaneGate() : nil
        gate?.close(lane, workers: workers)
        let done = Countdown(queued)
        Jemalloc.releaseFreeMemory()
        ResidentMemory.resetPeak()
        let baseline = ResidentMemory.current ?? 0
        let count = AllocationCount.measure {
            for _ in 0..<queued { lane.submit { done.tick() } }
        }
        let waiting = done.remainingCount
        let peak = ResidentMemory.peak ?? 0
        gate?.open()
        lane.drain()
        done.wait()
        var values: [Metric: Double] = [:]
        if let count {
            values[.allocsPerTask] = Double(count.allocations) / Double(queued)
            values[.bytesPerTask] = Double(count.bytes) / Double(queued)
        }
        if !capabilities.isDisjoint(with: [.asynchronous, .virtualTime]) {
            let growth = Double(peak > baseline ? peak - baseline : 0)
            values[.peakRSSGrowth] = growth / 1_048_576
            values[.rssPerQueuedTask] = growth / Double(queued)
        }
        return QueuedCount(result: RoundResult(values: values), heldEveryTask: gate == nil || waiting == queued)
    }
}
