/// One figure a workload reports: its name in the CSV files, its unit, which way is better, and whether it is an
/// exact count (the same on every run of the same code) or a measurement (noisy; judged with intervals).
///
/// A metric is identified by its name alone. Every metric is declared once, below; a name read from a CSV file that
/// is not declared here (a run of an older build) becomes a metric of its own with the unit the file gives.
public struct Metric: Hashable, Sendable, CustomStringConvertible {
    public let name: String
    public let unit: String
    public let lowerIsBetter: Bool
    /// Counted, not timed: allocations and instructions. Two runs of the same code agree to the unit, so any
    /// difference beyond rounding is real, and one round is enough.
    public let isExactCount: Bool
    /// CPU time (user + system, every thread of the process) per unit of work, not wall-clock time: what a process
    /// spent, whoever else shared its CPU. The only timing a duet judges (`bench ab`'s pairing).
    public let isCPUTime: Bool

    init(_ name: String, unit: String, lowerIsBetter: Bool = true, exact: Bool = false, cpuTime: Bool = false) {
        self.name = name
        self.unit = unit
        self.lowerIsBetter = lowerIsBetter
        self.isExactCount = exact
        self.isCPUTime = cpuTime
    }

    public var description: String { name }
    public static func == (lhs: Metric, rhs: Metric) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// The declared metric of this name, or one made from what a CSV file says of it.
    public static func named(_ name: String, unit: String = "", lowerIsBetter: Bool = true) -> Metric {
        all.first { $0.name == name } ?? Metric(name, unit: unit, lowerIsBetter: lowerIsBetter)
    }
}

extension Metric {
    // Time per unit of work (wall clock over a round).
    public static let nsPerTask = Metric("ns_per_task", unit: "ns")
    public static let cpuNsPerTask = Metric("cpu_ns_per_task", unit: "ns", cpuTime: true)
    public static let cpuNsPerRoundTrip = Metric("cpu_ns_per_round_trip", unit: "ns", cpuTime: true)
    public static let nsPerRoundTrip = Metric("ns_per_round_trip", unit: "ns")
    public static let nsPerStep = Metric("ns_per_step", unit: "ns")
    public static let nsPerValue = Metric("ns_per_value", unit: "ns")
    public static let nsPerCall = Metric("ns_per_call", unit: "ns")
    public static let nsPerEvent = Metric("ns_per_event", unit: "ns")
    /// Events a consumer received per second of wall clock (W16–W18): 10⁹ / `ns_per_event`.
    public static let eventsPerSecond = Metric("events_per_s", unit: "events/s", lowerIsBetter: false)
    /// Work done per wall-clock time, over the work's own CPU time on one thread (W15): 1 is serial.
    public static let speedup = Metric("speedup", unit: "x", lowerIsBetter: false)
    // What explains a drained observe(on:) figure (W17), which is not the scheduler's speed alone: how many events
    // one drain delivers, and how often the producer sends while a drain runs (both then take the mailbox's lock).
    public static let eventsPerDrain = Metric("events_per_drain", unit: "events", lowerIsBetter: false)
    public static let sendsDuringDrain = Metric("sends_during_drain_pct", unit: "%")
    // Latency percentiles (W5, W6, W16–W18), nanoseconds after the clock's own cost is subtracted.
    public static let p50 = Metric("p50", unit: "ns")
    public static let p90 = Metric("p90", unit: "ns")
    public static let p99 = Metric("p99", unit: "ns")
    public static let p999 = Metric("p99.9", unit: "ns")
    public static let maxLatency = Metric("max", unit: "ns")
    // Memory and CPU of one round (W9, W14): measured once, not exact.
    public static let peakRSSGrowth = Metric("peak_rss_growth", unit: "MiB")
    public static let rssPerQueuedTask = Metric("rss_per_queued_task", unit: "B")
    public static let cpuMsIdle = Metric("cpu_ms_idle", unit: "ms")
    // Repeating timers (W20): how much later each tick fires than the one before, beyond the plan (a least-squares
    // slope; 0 for a fixed-rate timer, a tick's own cost for one that counts from the last tick), and how far behind
    // the plan the last tick ran.
    public static let driftPerTick = Metric("drift_ns_per_tick", unit: "ns")
    public static let lastTickLateness = Metric("last_tick_lateness", unit: "ns")
    // Virtual clocks (W21): the wall-clock time one advance takes per sleeper it wakes.
    public static let nsPerSleeper = Metric("ns_per_sleeper", unit: "ns")
    // Explorations (W22): one schedule of a body of 100 jobs, start to end, and what it allocates on every thread.
    public static let nsPerSchedule = Metric("ns_per_schedule", unit: "ns")
    public static let allocsPerSchedule = Metric("allocs_per_schedule", unit: "allocations", exact: true)
    public static let sizeClassBytesPerSchedule = Metric(
        "size_class_bytes_per_schedule", unit: "B (size classes)", exact: true)
    // Exact counts: allocations (W9 on the scheduling thread; W11–W13 on every thread) and instructions.
    public static let allocsPerTask = Metric("allocs_per_task", unit: "allocations", exact: true)
    public static let bytesPerTask = Metric("bytes_per_task", unit: "B", exact: true)
    public static let allocsPerCall = Metric("allocs_per_call", unit: "allocations", exact: true)
    public static let allocsPerRoundTrip = Metric("allocs_per_round_trip", unit: "allocations", exact: true)
    public static let allocsPerEvent = Metric("allocs_per_event", unit: "allocations", exact: true)
    public static let sizeClassBytesPerTask = Metric("size_class_bytes_per_task", unit: "B (size classes)", exact: true)
    public static let sizeClassBytesPerCall = Metric("size_class_bytes_per_call", unit: "B (size classes)", exact: true)
    public static let sizeClassBytesPerEvent = Metric(
        "size_class_bytes_per_event", unit: "B (size classes)", exact: true)
    public static let sizeClassBytesPerRoundTrip = Metric(
        "size_class_bytes_per_round_trip", unit: "B (size classes)", exact: true)
    public static let instructionsToSchedule = Metric("instructions_to_schedule", unit: "instructions", exact: true)
    public static let instructionsToRun = Metric("instructions_to_run", unit: "instructions", exact: true)
    public static let estimatedCyclesToSchedule = Metric(
        "estimated_cycles_to_schedule", unit: "estimated cycles", exact: true)
    public static let estimatedCyclesToRun = Metric("estimated_cycles_to_run", unit: "estimated cycles", exact: true)

    /// The latency percentiles every latency workload reports, with the percentile each one reads.
    public static let latencyPercentiles: [(metric: Metric, percentile: Double)] = [
        (.p50, 50), (.p90, 90), (.p99, 99), (.p999, 99.9), (.maxLatency, 100),
    ]

    /// Every declared metric.
    public static let all: [Metric] = [
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
}

extension Metric {
    /// How far apart two exact counts of this metric may lie and still be the same count: the one definition that
    /// `bench check`, `bench ab`, `bench compare`, the goals and the report share. Counts are averages over many tasks,
    /// so sub-unit jitter (0.017 against 0.02 size-class bytes per call) is never a difference.
    /// - instructions and estimated cycles: 2 % of the figure (a compiler or libc update shifts a few);
    /// - allocations: 0.1 (one more allocation in ten tasks counts);
    /// - bytes: 2 % of the figure or 8 B (a size class), whichever is more.
    public func countTolerance(around value: Double) -> Double {
        switch unit {
        case "instructions", "estimated cycles": abs(value) * 0.02
        case "allocations": 0.1
        default: max(8, abs(value) * 0.02)
        }
    }

    /// Two exact counts that are the same within ``countTolerance(around:)``.
    public func sameCount(_ a: Double, _ b: Double) -> Bool {
        abs(a - b) <= countTolerance(around: max(abs(a), abs(b)))
    }
}
