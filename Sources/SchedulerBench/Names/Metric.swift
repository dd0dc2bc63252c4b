/// One figure a workload reports: its name in the CSV files, its unit, which way is better, and whether it is an
/// exact count (the same on every run of the same code) or a measurement (noisy; judged with intervals).
///
/// A metric is identified by its name alone. Every metric is declared once, below, as a case; a name read from a CSV
/// file that is not declared here (a run of an older build) becomes a metric of its own, ``undeclared(name:unit:lowerIsBetter:)``,
/// with the unit the file gives.
public enum Metric: Hashable, Sendable, CustomStringConvertible {
    // Time per unit of work (wall clock over a round).
    case nsPerTask
    case cpuNsPerTask
    case cpuNsPerRoundTrip
    case nsPerRoundTrip
    case nsPerStep
    case nsPerValue
    case nsPerCall
    case nsPerEvent
    /// Events a consumer received per second of wall clock (W16–W18): 10⁹ / `ns_per_event`.
    case eventsPerSecond
    /// Work done per wall-clock time, over the work's own CPU time on one thread (W15): 1 is serial.
    case speedup
    // What explains a drained observe(on:) figure (W17), which is not the scheduler's speed alone: how many events
    // one drain delivers, and how often the producer sends while a drain runs (both then take the mailbox's lock).
    case eventsPerDrain
    case sendsDuringDrain
    // Latency percentiles (W5, W6, W16–W18), nanoseconds after the clock's own cost is subtracted.
    case p50
    case p90
    case p99
    case p999
    case maxLatency
    // Memory and CPU of one round (W9, W14): measured once, not exact.
    case peakRSSGrowth
    case rssPerQueuedTask
    case cpuMsIdle
    // Repeating timers (W20): how much later each tick fires than the one before, beyond the plan (a least-squares
    // slope; 0 for a fixed-rate timer, a tick's own cost for one that counts from the last tick), and how far behind
    // the plan the last tick ran.
    case driftPerTick
    case lastTickLateness
    // Virtual clocks (W21): the wall-clock time one advance takes per sleeper it wakes.
    case nsPerSleeper
    // Explorations (W22): one schedule of a body of 100 jobs, start to end, and what it allocates on every thread.
    case nsPerSchedule
    case allocsPerSchedule
    case sizeClassBytesPerSchedule
    // Exact counts: allocations (W9 on the scheduling thread; W11–W13 on every thread) and instructions.
    case allocsPerTask
    case bytesPerTask
    case allocsPerCall
    case allocsPerRoundTrip
    case allocsPerEvent
    case sizeClassBytesPerTask
    case sizeClassBytesPerCall
    case sizeClassBytesPerEvent
    case sizeClassBytesPerRoundTrip
    case instructionsToSchedule
    case instructionsToRun
    case estimatedCyclesToSchedule
    case estimatedCyclesToRun
    /// A metric this build does not declare, read from a file of another build, as the file describes it.
    case undeclared(name: String, unit: String, lowerIsBetter: Bool)

    /// Its name in the CSV files (`ns_per_task`).
    public var name: String { traits.name }
    public var unit: String { traits.unit }
    public var lowerIsBetter: Bool { traits.lowerIsBetter }
    /// Counted, not timed: allocations and instructions. Two runs of the same code agree to the unit, so any
    /// difference beyond rounding is real, and one round is enough.
    public var isExactCount: Bool { traits.isExactCount }
    /// CPU time (user + system, every thread of the process) per unit of work, not wall-clock time: what a process
    /// spent, whoever else shared its CPU. The only timing a duet judges (`bench ab`'s pairing).
    public var isCPUTime: Bool { traits.isCPUTime }

    public var description: String { name }
    public static func == (lhs: Metric, rhs: Metric) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// The declared metric of this name, or one made from what a CSV file says of it.
    public static func named(_ name: String, unit: String = "", lowerIsBetter: Bool = true) -> Metric {
        all.first { $0.name == name } ?? .undeclared(name: name, unit: unit, lowerIsBetter: lowerIsBetter)
    }

    /// The latency percentiles every latency workload reports, with the percentile each one reads.
    public static let latencyPercentiles: [(metric: Metric, percentile: Double)] = [
        (.p50, 50), (.p90, 90), (.p99, 99), (.p999, 99.9), (.maxLatency, 100),
    ]

    /// Every declared metric.
    static let all: [Metric] = [
        .nsPerTask, .cpuNsPerTask, .nsPerRoundTrip, .cpuNsPerRoundTrip, .nsPerStep, .nsPerValue, .nsPerCall,
        .nsPerEvent,
        .eventsPerSecond, .speedup, .eventsPerDrain, .sendsDuringDrain,
        .p50, .p90, .p99, .p999, .maxLatency, .peakRSSGrowth, .rssPerQueuedTask, .cpuMsIdle,
        .driftPerTick, .lastTickLateness, .nsPerSleeper, .nsPerSchedule,
        .allocsPerTask, .bytesPerTask, .allocsPerCall, .allocsPerRoundTrip, .allocsPerEvent,
        .sizeClassBytesPerTask, .sizeClassBytesPerCall, .sizeClassBytesPerRoundTrip, .sizeClassBytesPerEvent,
        .allocsPerSchedule,
        .sizeClassBytesPerSchedule,
        .instructionsToSchedule, .instructionsToRun, .estimatedCyclesToSchedule, .estimatedCyclesToRun,
    ]

    /// What a metric is, written once per case.
    private struct Traits {
        let name: String
        let unit: String
        var lowerIsBetter = true
        var isExactCount = false
        var isCPUTime = false

        init(_ name: String, unit: String, lowerIsBetter: Bool = true, exact: Bool = false, cpuTime: Bool = false) {
            self.name = name
            self.unit = unit
            self.lowerIsBetter = lowerIsBetter
            self.isExactCount = exact
            self.isCPUTime = cpuTime
        }
    }

    private var traits: Traits {
        switch self {
        case .nsPerTask: Traits("ns_per_task", unit: "ns")
        case .cpuNsPerTask: Traits("cpu_ns_per_task", unit: "ns", cpuTime: true)
        case .cpuNsPerRoundTrip: Traits("cpu_ns_per_round_trip", unit: "ns", cpuTime: true)
        case .nsPerRoundTrip: Traits("ns_per_round_trip", unit: "ns")
        case .nsPerStep: Traits("ns_per_step", unit: "ns")
        case .nsPerValue: Traits("ns_per_value", unit: "ns")
        case .nsPerCall: Traits("ns_per_call", unit: "ns")
        case .nsPerEvent: Traits("ns_per_event", unit: "ns")
        case .eventsPerSecond: Traits("events_per_s", unit: "events/s", lowerIsBetter: false)
        case .speedup: Traits("speedup", unit: "x", lowerIsBetter: false)
        case .eventsPerDrain: Traits("events_per_drain", unit: "events", lowerIsBetter: false)
        case .sendsDuringDrain: Traits("sends_during_drain_pct", unit: "%")
        case .p50: Traits("p50", unit: "ns")
        case .p90: Traits("p90", unit: "ns")
        case .p99: Traits("p99", unit: "ns")
        case .p999: Traits("p99.9", unit: "ns")
        case .maxLatency: Traits("max", unit: "ns")
        case .peakRSSGrowth: Traits("peak_rss_growth", unit: "MiB")
        case .rssPerQueuedTask: Traits("rss_per_queued_task", unit: "B")
        case .cpuMsIdle: Traits("cpu_ms_idle", unit: "ms")
        case .driftPerTick: Traits("drift_ns_per_tick", unit: "ns")
        case .lastTickLateness: Traits("last_tick_lateness", unit: "ns")
        case .nsPerSleeper: Traits("ns_per_sleeper", unit: "ns")
        case .nsPerSchedule: Traits("ns_per_schedule", unit: "ns")
        case .allocsPerSchedule: Traits("allocs_per_schedule", unit: "allocations", exact: true)
        case .sizeClassBytesPerSchedule: Traits("size_class_bytes_per_schedule", unit: "B (size classes)", exact: true)
        case .allocsPerTask: Traits("allocs_per_task", unit: "allocations", exact: true)
        case .bytesPerTask: Traits("bytes_per_task", unit: "B", exact: true)
        case .allocsPerCall: Traits("allocs_per_call", unit: "allocations", exact: true)
        case .allocsPerRoundTrip: Traits("allocs_per_round_trip", unit: "allocations", exact: true)
        case .allocsPerEvent: Traits("allocs_per_event", unit: "allocations", exact: true)
        case .sizeClassBytesPerTask: Traits("size_class_bytes_per_task", unit: "B (size classes)", exact: true)
        case .sizeClassBytesPerCall: Traits("size_class_bytes_per_call", unit: "B (size classes)", exact: true)
        case .sizeClassBytesPerEvent: Traits("size_class_bytes_per_event", unit: "B (size classes)", exact: true)
        case .sizeClassBytesPerRoundTrip:
            Traits("size_class_bytes_per_round_trip", unit: "B (size classes)", exact: true)
        case .instructionsToSchedule: Traits("instructions_to_schedule", unit: "instructions", exact: true)
        case .instructionsToRun: Traits("instructions_to_run", unit: "instructions", exact: true)
        case .estimatedCyclesToSchedule: Traits("estimated_cycles_to_schedule", unit: "estimated cycles", exact: true)
        case .estimatedCyclesToRun: Traits("estimated_cycles_to_run", unit: "estimated cycles", exact: true)
        case .undeclared(let name, let unit, let lowerIsBetter): Traits(name, unit: unit, lowerIsBetter: lowerIsBetter)
        }
    }
}
