import Foundation
import Histogram

/// What one run of a workload's body measured.
struct RoundResult: Sendable {
    /// Metric → value; a metric missing here was not measurable (e.g. allocations without jemalloc).
    var values: [Metric: Double]
    /// Latency samples, for the percentile columns (latency workloads only).
    var histogram: Histogram<UInt64>?

    init(values: [Metric: Double], histogram: Histogram<UInt64>? = nil) {
        self.values = values
        self.histogram = histogram
    }

    /// Latency samples (nanoseconds, already corrected for the clock's own cost) summarised by HdrHistogram.
    static func latencies(_ samples: [UInt64]) -> RoundResult {
        var histogram = Histogram<UInt64>(highestTrackableValue: highestLatency, numberOfSignificantValueDigits: .three)
        histogram.autoResize = true
        for sample in samples { _ = histogram.record(max(1, sample)) }
        return RoundResult(values: percentiles(of: histogram), histogram: histogram)
    }

    /// A minute, in nanoseconds: the histogram grows beyond it if it must (`autoResize`), so this only sizes it.
    static let highestLatency: UInt64 = 60_000_000_000

    static func percentiles(of histogram: Histogram<UInt64>) -> [Metric: Double] {
        var values: [Metric: Double] = [:]
        for (metric, percentile) in Metric.latencyPercentiles {
            values[metric] = Double(percentile == 100 ? histogram.max : histogram.valueAtPercentile(percentile))
        }
        return values
    }

    /// One result for several repetitions of equal size: latency samples merged (percentiles of all of them), every
    /// other figure (a cost per unit of work) averaged.
    static func combining(_ results: [RoundResult]) -> RoundResult {
        guard results.count > 1 else { return results.first ?? RoundResult(values: [:]) }
        var combined = RoundResult(values: [:])
        for metric in Set(results.flatMap(\.values.keys)) {
            let values = results.compactMap { $0.values[metric] }
            if values.count == results.count { combined.values[metric] = values.reduce(0, +) / Double(values.count) }
        }
        let histograms = results.compactMap(\.histogram)
        if var merged = histograms.first {
            for histogram in histograms.dropFirst() { merged.add(histogram) }
            combined.histogram = merged
            combined.values.merge(percentiles(of: merged)) { _, merged in merged }
        }
        return combined
    }
}

/// A benchmark workload (`Docs/Workloads.md`): one definition, run by `bench` and by the tests.
public struct Workload: Sendable {
    public let id: WorkloadID
    public let name: String
    public let summary: String
    /// A backend runs this workload only if it has all of these.
    public let requires: Capabilities
    /// Reported metrics; the first is the headline of the tables and the one the round policy watches.
    public let metrics: [Metric]
    /// One round, never repeated or extended: exact counts (W9), or one long measurement of its own (W14).
    let measuredOnce: Bool
    /// Allocations of every thread per unit of work, counted in a separate pass (W11–W13; see `AllocationPass`).
    let allocationProbe: AllocationProbe?
    /// Whether some of its metrics are counted in a child process of `bench` (the allocations of every thread,
    /// W11–W13, W22, W24, W25): a program of its own runs it without them.
    public var countsInAChildProcess: Bool { allocationProbe != nil }
    let configurations: @Sendable (Scale) -> [Parameters]
    let body: @Sendable (_ lanes: LaneGroup, _ backend: Backend, _ parameters: Parameters) -> RoundResult
    /// A configuration's *ideal*: the same work, with the one decision the configuration leaves to the executor made
    /// by the workload, at its best (W25 `consumer=after`: the consumer task starts once the burst is written). Nil
    /// where it has none.
    package let ideal: @Sendable (Parameters) -> Parameters?

    init(
        id: WorkloadID, name: String, summary: String, requires: Capabilities, metrics: [Metric],
        measuredOnce: Bool = false, allocationProbe: AllocationProbe? = nil,
        configurations: @escaping @Sendable (Scale) -> [Parameters],
        ideal: @escaping @Sendable (Parameters) -> Parameters? = { _ in nil },
        body: @escaping @Sendable (LaneGroup, Backend, Parameters) -> RoundResult
    ) {
        self.ideal = ideal
        self.id = id
        self.name = name
        self.summary = summary
        self.requires = requires
        self.metrics = metrics
        self.measuredOnce = measuredOnce
        self.allocationProbe = allocationProbe
        self.configurations = configurations
        self.body = body
    }

    public func parameters(at scale: Scale) -> [Parameters] { configurations(scale) }

    /// Every metric the workload reports, the allocation pass's included.
    public var allMetrics: [Metric] { metrics + (allocationProbe?.metrics ?? []) }

    public func supports(_ backend: Backend) -> Bool {
        backend.has(requires) && (requires.contains(.taskExecutor) || !backend.hostsOnlyActors)
            && (!requires.isDisjoint(with: Backend.clockCapabilities) || !backend.hostsOnlyAClock)
            && (requires.contains(.exploration) || !backend.hostsOnlyExplorations)
    }

    /// One run of the body on a fresh instance of `backend`; the instance is shut down afterwards.
    func runRound(on backend: Backend, _ parameters: Parameters) -> RoundResult {
        let lanes = backend.instance()
        defer { lanes.shutdown() }
        return body(lanes, backend, parameters)
    }

    /// Every workload: W1 to W10, W11 to W13 on actors and tasks, W14 idle CPU, W15 parallel fan-out, W16 to W18
    /// events received on a scheduler, W19 sleeping on a clock, W20 repeating timers, W21 virtual clocks, W22
    /// explored schedules, W23 one exploration step by ready count, W24–W25 shaped like a server on Swift
    /// concurrency (`Docs/Workloads.md`).
    public static let all: [Workload] =
        [
            .singleProducer, .producers, .fanOut, .pingPong, .startLatency, .timerLateness, .cancellation,
            .recursion, .allocations, .reactiveHop, .actorHop, .taskLifecycle, .actorPingPong, .idleCPU,
            .parallelFanOut, .observeOn, .observeOnDrain,
        ] + withPeers + [
            .clockSleep, .timerDrift, .virtualSleepers, .exploredSchedules, .explorationStep, .taskFanIn,
            .actorPipeline,
        ]

    /// W18 runs a Combine pipeline: with the Combine trait only.
    static var withPeers: [Workload] {
        #if Combine
            [.receiveOn]
        #else
            []
        #endif
    }

    public static func withID(_ id: WorkloadID) -> Workload? { all.first { $0.id == id } }

    /// Finds a workload by id ("W4", case-insensitive) or name ("ping-pong"): what a person types.
    public static func named(_ key: String) -> Workload? {
        all.first { $0.id.rawValue.caseInsensitiveCompare(key) == .orderedSame || $0.name == key }
    }
}

/// Nanoseconds between two clock readings divided by `count`.
func nanosecondsPer(_ count: Int, from start: UInt64, to end: UInt64) -> Double {
    Double(end &- start) / Double(count)
}
