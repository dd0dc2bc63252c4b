/// What a cell's rounds say of one backend's metric: the median with its interval, the range, and the two modes
/// when the rounds fall into two clusters.
public struct SampleSummary: Sendable, Equatable {
    public var count: Int
    /// The median of the rounds and its 95 % distribution-free interval (order statistics).
    public var median: Estimate
    public var min: Double
    public var max: Double
    /// Empty, or two modes (see ``Modes``).
    public var modes: [Mode]

    public init(count: Int, median: Estimate, min: Double, max: Double, modes: [Mode] = []) {
        self.count = count
        self.median = median
        self.min = min
        self.max = max
        self.modes = modes
    }

    public init(_ values: [Double]) {
        self.init(
            count: values.count, median: Statistics.medianEstimate(values), min: values.min() ?? 0,
            max: values.max() ?? 0, modes: Modes.detect(values))
    }

    /// Too few rounds, or an interval wider than ``Statistics/trustedSpread`` of the median.
    public var isTooNoisy: Bool {
        count < Statistics.minimumRounds || median.relativeWidth > Statistics.trustedSpread
    }
}
