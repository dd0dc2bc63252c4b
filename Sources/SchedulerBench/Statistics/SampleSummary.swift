/// What a cell's rounds say of one backend's metric: the median with its interval, the range, and the two modes
/// when the rounds fall into two clusters.
public struct SampleSummary: Sendable, Equatable {
    /// One cluster of a cell's rounds: where its rounds lie (their median) and what share of the rounds it holds.
    public typealias Mode = (value: Double, share: Double)

    public var count: Int
    /// The median of the rounds (at the cell's median machine level, `RoundLevels`) and its 95 %
    /// distribution-free interval (order statistics).
    public var median: Estimate
    /// The range of the rounds as measured.
    public var min: Double
    public var max: Double
    /// Empty, or two modes, lower first.
    public var modes: [Mode]

    init(count: Int, median: Estimate, min: Double, max: Double, modes: [Mode] = []) {
        self.count = count
        self.median = median
        self.min = min
        self.max = max
        self.modes = modes
    }

    /// The summary of `values`; `measured` (the same rounds before `RoundLevels` moved them, where it did) gives
    /// the range, which stays what was measured.
    init(_ values: [Double], measured: [Double]? = nil) {
        let range = measured ?? values
        self.init(
            count: values.count, median: Statistics.medianEstimate(values), min: range.min() ?? 0,
            max: range.max() ?? 0, modes: Modes.detect(values))
    }

    public static func == (lhs: SampleSummary, rhs: SampleSummary) -> Bool {
        (lhs.count, lhs.median, lhs.min, lhs.max) == (rhs.count, rhs.median, rhs.min, rhs.max)
            && lhs.modes.elementsEqual(rhs.modes) { $0 == $1 }
    }

    /// Too few rounds, or an interval wider than ``Statistics/trustedSpread`` of the median.
    var isTooNoisy: Bool {
        count < Statistics.minimumRounds || median.relativeWidth > Statistics.trustedSpread
    }
}
