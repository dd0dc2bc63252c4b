/// Summary statistics of the per-round values of one metric, and whether their spread is narrow enough to trust.
public struct SampleSummary: Sendable, Equatable {
    public var count: Int
    public var median: Double
    public var min: Double
    public var max: Double
    /// 95 % bootstrap interval of the median (percentile method, fixed seed, so a run is reproducible).
    public var intervalLow: Double
    public var intervalHigh: Double

    /// Relative width of the bootstrap interval: (high - low) / median.
    public var relativeSpread: Double {
        median == 0 ? (intervalHigh == intervalLow ? 0 : .infinity) : (intervalHigh - intervalLow) / abs(median)
    }

    /// Too few rounds, or an interval wider than ``Statistics/trustedSpread`` of the median.
    public var isTooNoisy: Bool { count < Statistics.minimumRounds || relativeSpread > Statistics.trustedSpread }

    public init(count: Int, median: Double, min: Double, max: Double, intervalLow: Double, intervalHigh: Double) {
        self.count = count
        self.median = median
        self.min = min
        self.max = max
        self.intervalLow = intervalLow
        self.intervalHigh = intervalHigh
    }
}

public enum Statistics {
    /// An interval wider than this fraction of the median is reported as too wide to trust.
    public static let trustedSpread = 0.25
    /// With fewer rounds than this there is no interval worth the name.
    public static let minimumRounds = 3
    static let bootstrapResamples = 2_000

    public static func median(_ values: [Double]) -> Double {
        precondition(!values.isEmpty, "median: no values")
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    /// The value below which `fraction` of `sorted` lies (linear interpolation between neighbours).
    public static func quantile(sorted: [Double], _ fraction: Double) -> Double {
        precondition(!sorted.isEmpty, "quantile: no values")
        let position = fraction * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = Swift.min(lower + 1, sorted.count - 1)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - Double(lower))
    }

    /// Median, extremes and a 95 % bootstrap interval of the median.
    public static func summarize(_ values: [Double], seed: UInt64 = 0x5eed) -> SampleSummary {
        let median = median(values)
        var generator = SplitMix64(seed: seed)
        var medians: [Double] = []
        medians.reserveCapacity(bootstrapResamples)
        var resample = [Double](repeating: 0, count: values.count)
        for _ in 0..<bootstrapResamples {
            for index in resample.indices { resample[index] = values[Int(generator.next() % UInt64(values.count))] }
            medians.append(Self.median(resample))
        }
        medians.sort()
        return SampleSummary(
            count: values.count, median: median, min: values.min()!, max: values.max()!,
            intervalLow: quantile(sorted: medians, 0.025), intervalHigh: quantile(sorted: medians, 0.975)
        )
    }
}

/// A small, fast, seedable generator (Steele, Lea and Flood's SplitMix64), so that bootstraps and random deadlines
/// are the same from run to run.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
