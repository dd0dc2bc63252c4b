import Histogram

/// How big a run is: `full` for the reference run, `quick` for CI (under a minute), `smoke` for the tests.
public enum Scale: String, Sendable, CaseIterable {
    case full, quick, smoke

    /// Measured rounds per (workload, parameters, backend), after one warm-up round.
    public var rounds: Int {
        switch self {
        case .full: 9
        case .quick: 3
        case .smoke: 1
        }
    }

    /// Picks the size for this scale.
    func size(full: Int, quick: Int, smoke: Int) -> Int {
        switch self {
        case .full: full
        case .quick: quick
        case .smoke: smoke
        }
    }
}

/// Named parameters of one workload configuration, in a fixed order ("producers=4 tasks=100000"): integers, and named
/// choices ("caller=backend") after them.
public struct Parameters: Sendable, Hashable, CustomStringConvertible {
    public let pairs: [Pair]

    public struct Pair: Sendable, Hashable {
        public let name: String
        /// The number, or nil for a choice.
        public let value: Int?
        /// The chosen option of a choice parameter, nil for a number.
        public let choice: String?
    }

    public init(_ pairs: KeyValuePairs<String, Int>, choices: KeyValuePairs<String, String> = [:]) {
        self.pairs = pairs.map { Pair(name: $0.key, value: $0.value, choice: nil) }
            + choices.map { Pair(name: $0.key, value: nil, choice: $0.value) }
    }

    public subscript(_ name: String) -> Int {
        guard let value = pairs.first(where: { $0.name == name })?.value else { preconditionFailure("no number \(name) in \(self)") }
        return value
    }

    /// The option chosen for a choice parameter.
    public func choice(_ name: String) -> String {
        guard let choice = pairs.first(where: { $0.name == name })?.choice else { preconditionFailure("no choice \(name) in \(self)") }
        return choice
    }

    public var description: String { pairs.map { "\($0.name)=\($0.choice ?? $0.value.map(String.init) ?? "")" }.joined(separator: " ") }
}

/// One metric a workload reports, with its unit and which way is better.
public struct MetricSpec: Sendable, Hashable {
    public let name: String
    public let unit: String
    public let lowerIsBetter: Bool

    public init(_ name: String, unit: String, lowerIsBetter: Bool = true) {
        self.name = name
        self.unit = unit
        self.lowerIsBetter = lowerIsBetter
    }

    /// The percentiles every latency workload reports (values in nanoseconds after clock-overhead correction).
    static let latencyPercentiles: [(MetricSpec, Double)] = [
        (MetricSpec("p50", unit: "ns"), 50), (MetricSpec("p90", unit: "ns"), 90), (MetricSpec("p99", unit: "ns"), 99),
        (MetricSpec("p99.9", unit: "ns"), 99.9), (MetricSpec("max", unit: "ns"), 100),
    ]
}

/// What one round of one workload on one backend measured.
public struct RoundResult: Sendable {
    /// Metric name → value; a metric missing here was not measurable (e.g. allocations without jemalloc).
    public var values: [String: Double]
    /// Latency samples of the round, for the percentile columns (latency workloads only).
    public var histogram: Histogram<UInt64>?

    public init(values: [String: Double], histogram: Histogram<UInt64>? = nil) {
        self.values = values
        self.histogram = histogram
    }

    /// Latency samples (nanoseconds, already corrected for the clock's own cost) summarised by HdrHistogram.
    static func latencies(_ samples: [UInt64]) -> RoundResult {
        var histogram = Histogram<UInt64>(highestTrackableValue: 60_000_000_000, numberOfSignificantValueDigits: .three)
        histogram.autoResize = true
        for sample in samples { _ = histogram.record(max(1, sample)) }
        var values: [String: Double] = [:]
        for (metric, percentile) in MetricSpec.latencyPercentiles {
            values[metric.name] = Double(percentile == 100 ? histogram.max : histogram.valueAtPercentile(percentile))
        }
        return RoundResult(values: values, histogram: histogram)
    }
}

/// A benchmark workload of BRIEF §5: one definition, run by `bench` and by the tests.
public struct Workload: Sendable {
    public let id: String
    public let name: String
    public let summary: String
    /// A backend runs this workload only if it has all of these.
    public let requires: Capabilities
    /// Reported metrics; the first is the headline of the tables.
    public let metrics: [MetricSpec]
    /// Exact counts need a single round (W9): repeating them measures nothing new.
    public let singleRound: Bool
    /// Allocations of every thread per unit of work, counted in a separate pass (W11–W13; see ``AllocationPass``).
    public let allocationProbe: AllocationProbe?
    let configurations: @Sendable (Scale) -> [Parameters]
    let body: @Sendable (_ lanes: LaneGroup, _ backend: Backend, _ parameters: Parameters) -> RoundResult

    init(id: String, name: String, summary: String, requires: Capabilities, metrics: [MetricSpec], singleRound: Bool = false,
         allocationProbe: AllocationProbe? = nil, configurations: @escaping @Sendable (Scale) -> [Parameters],
         body: @escaping @Sendable (LaneGroup, Backend, Parameters) -> RoundResult) {
        self.id = id
        self.name = name
        self.summary = summary
        self.requires = requires
        self.metrics = metrics
        self.singleRound = singleRound
        self.allocationProbe = allocationProbe
        self.configurations = configurations
        self.body = body
    }

    public func parameters(at scale: Scale) -> [Parameters] { configurations(scale) }

    public func supports(_ backend: Backend) -> Bool {
        backend.has(requires) && (requires.contains(.executor) || !backend.hostsOnlyActors)
    }

    /// One round on a fresh instance of `backend`; the instance is shut down afterwards.
    public func runRound(on backend: Backend, _ parameters: Parameters) -> RoundResult {
        let lanes = backend.instance()
        defer { lanes.shutdown() }
        return body(lanes, backend, parameters)
    }

    /// Every workload: W1 to W10 of BRIEF §5, W11 to W13 on actors and tasks, W14 idle CPU.
    public static let all: [Workload] = [
        .singleProducer, .producers, .fanOut, .pingPong, .startLatency, .timerLateness, .cancellation,
        .recursion, .allocations, .reactiveHop, .actorHop, .taskLifecycle, .actorPingPong, .idleCPU,
    ]

    /// Finds a workload by id ("W4", case-insensitive) or name ("ping-pong").
    public static func named(_ key: String) -> Workload? {
        all.first { $0.id.caseInsensitiveCompare(key) == .orderedSame || $0.name == key }
    }
}

/// Nanoseconds between two clock readings divided by `count`.
func nanosecondsPer(_ count: Int, from start: UInt64, to end: UInt64) -> Double {
    Double(end &- start) / Double(count)
}
