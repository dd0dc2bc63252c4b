import SchedulerBench
import SchedulerConformance
import ToolSupport

extension Report {
    /// A few sentences a reader can act on, computed from the rows; ratios are paired, with their intervals.
    static func reading(_ view: RunView) -> [String] {
        var lines: [String] = []
        let schedulers: [BackendID] = [.dispatch, .threadPool, .operationQueue]
        func ranked(_ workload: WorkloadID, _ metric: Metric) -> [SummaryRow] {
            schedulers.compactMap { view.row($0, workload, metric) }.sorted {
                $0.summary.median.value < $1.summary.median.value
            }
        }
        let w1 = ranked(.throughput, .nsPerTask)
        if let best = w1.first, let raw = view.row(.rawDispatch, .throughput, .nsPerTask) {
            let others = w1.dropFirst().compactMap { row in
                view.ratio(row, best).map { "`\(row.backend)` costs \(Format.present($0)) `\(best.backend)`'s" }
            }
            lines.append(
                "Throughput (W1): the cheapest asynchronous backend is `\(best.backend)` at \(Format.figure(best.summary)) ns/task; "
                    + "raw `DispatchQueue.async` costs \(Format.figure(raw.summary)) ns. "
                    + others.joined(separator: ", ")
                    + ".")
        }
        let w4 = ranked(.pingPong, .nsPerRoundTrip)
        if let best = w4.first, let raw = view.row(.rawDispatch, .pingPong, .nsPerRoundTrip) {
            let global = view.row(.rawDispatchGlobal, .pingPong, .nsPerRoundTrip)
            lines.append(
                "Hops (W4): the cheapest round trip between two schedulers is `\(best.backend)` at "
                    + "\(microseconds(best.summary.median.value)) (raw Dispatch \(microseconds(raw.summary.median.value)) on a plain serial queue"
                    + (global.map {
                        ", \(microseconds($0.summary.median.value)) on serial queues targeting `.global()`"
                    } ?? "")
                    + "). For pipelines that hop on every value (W10), pick by this figure, not by W1.")
        }
        let latency = [BackendID.threadPool, .dispatch].compactMap { backend -> String? in
            guard let idle = view.row(backend, .startLatency, .p99, Parameters([.load: 0])),
                let busy = view.row(backend, .startLatency, .p99, Parameters([.load: 1]))
            else { return nil }
            return
                "`\(backend)` \(microseconds(idle.summary.median.value)) idle / \(microseconds(busy.summary.median.value)) saturated"
        }
        if !latency.isEmpty { lines.append("Latency (W5, p99): " + latency.joined(separator: "; ") + ".") }
        let allocations = schedulers.compactMap { backend in
            view.row(backend, .allocations, .allocsPerTask).map {
                "`\(backend)` \(Format.short($0.summary.median.value))"
            }
        }
        if !allocations.isEmpty, let direct = view.row(.directCall, .allocations, .allocsPerTask) {
            lines.append(
                "Allocations per task (W9): " + allocations.joined(separator: ", ")
                    + "; the closure's own context alone (direct call) is \(Format.short(direct.summary.median.value))."
            )
        }
        let concurrent: [BackendID] = [.threadPoolConcurrent, .concurrentDispatch, .operationQueueConcurrent]
        let speedups = (concurrent + [.threadPool, .dispatch]).compactMap { backend in
            view.row(backend, .parallelFanOut, .speedup).map {
                "`\(backend)` \(Format.short($0.summary.median.value))x"
            }
        }
        if !speedups.isEmpty {
            lines.append(
                "Concurrency (W15, CPU-bound 5 µs tasks, speed-up over one thread; the core count is the ceiling): "
                    + speedups.joined(separator: ", ")
                    + " (the serial ones spread over one scheduler per core). A hop onto a concurrent scheduler costs "
                    + "what W1 says for it; it buys speed-up only for independent work.")
        }
        let bimodal = view.rows.filter { $0.summary.modes.count == 2 }
        if !bimodal.isEmpty {
            lines.append(
                "\(bimodal.count) of \(view.rows.count) rows fall into two modes (where the kernel put the threads decided "
                    + "the round); they are shown as two modes with their shares. `--cpus` fixes the placement.")
        }
        let noisy = view.rows.filter {
            !$0.isTrusted && $0.summary.count >= Statistics.minimumRounds
                && $0.summary.modes.isEmpty
        }
        if !noisy.isEmpty {
            lines.append(
                "\(noisy.count) of \(view.rows.count) rows have an interval wider than \(Int(Statistics.trustedSpread * 100)) % "
                    + "of the median: re-run those workloads alone with more --rounds on a quiet machine before citing them."
            )
        }
        return lines
    }

    /// Microseconds, or milliseconds from 1 ms up.
    static func microseconds(_ nanoseconds: Double) -> String {
        nanoseconds >= 1_000_000
            ? Format.short(nanoseconds / 1_000_000) + " ms" : Format.short(nanoseconds / 1000) + " µs"
    }
}
