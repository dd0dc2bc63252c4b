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
                Parameters([.cancelledPercent: $0, .tasks: scale.size(full: 100_000, quick: 10_000, smoke: 200)])
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
    static let allocations = Workload(
        id: .allocations, name: "allocations",
        summary: "allocations and bytes per task; peak RSS with 1 000 000 queued tasks",
        requires: [], metrics: [.allocsPerTask, .bytesPerTask, .peakRSSGrowth, .rssPerQueuedTask],
        measuredOnce: true,
        configurations: { [Parameters([.queued: $0.size(full: 1_000_000, quick: 100_000, smoke: 200)])] }
    ) { lanes, backend, parameters in
        let queued = parameters[.queued]
        let lane = lanes.lane("w9")
        let gate = backend.has(.asynchronous) ? LaneGate() : nil
        gate?.close(lane, workers: backend.has(.concurrent) ? Clock.cores : 1)
        let done = Countdown(queued)
        Jemalloc.releaseFreeMemory()
        ResidentMemory.resetPeak()
        let baseline = ResidentMemory.current ?? 0
        let count = AllocationCount.measure {
            for _ in 0..<queued { lane.submit { done.tick() } }
        }
        let peak = ResidentMemory.peak ?? 0
        gate?.open()
        lane.drain()
        done.wait()
        var values: [Metric: Double] = [:]
        if let count {
            values[.allocsPerTask] = Double(count.allocations) / Double(queued)
            values[.bytesPerTask] = Double(count.bytes) / Double(queued)
        }
        if backend.has(.asynchronous) || backend.has(.virtualTime) {
            let growth = Double(peak > baseline ? peak - baseline : 0)
            values[.peakRSSGrowth] = growth / 1_048_576
            values[.rssPerQueuedTask] = growth / Double(queued)
        }
        return RoundResult(values: values)
    }
}
