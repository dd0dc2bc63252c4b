import Foundation
import ToolSupport

/// A figure with its 95 % interval.
public struct Estimate: Sendable, Equatable {
    public var value: Double
    public var low: Double
    public var high: Double

    public init(value: Double, low: Double, high: Double) {
        self.value = value
        self.low = low
        self.high = high
    }

    /// An exact figure: its interval is the point itself.
    public static func exact(_ value: Double) -> Estimate { Estimate(value: value, low: value, high: value) }

    /// Width of the interval relative to the figure: (high − low) / |value|.
    var relativeWidth: Double {
        value == 0 ? (high == low ? 0 : .infinity) : (high - low) / abs(value)
    }

    public func contains(_ point: Double) -> Bool { low <= point && point <= high }
}

/// Medians, intervals and ratios of per-round values (`Docs/Statistics.md`).
///
/// The interval of a median is the distribution-free one: it runs from the k-th smallest to the k-th largest value,
/// with k the largest for which the median lies inside with at least the confidence asked (the binomial
/// distribution of how many values fall below it). It assumes nothing about the shape of the noise, and with too few
/// values for the confidence (fewer than 6 for 95 %) it has no bounds at all rather than false ones.
/// Ratios between two backends of one cell are *paired*: round i of both ran in the same sweep, back to back, so
/// whatever the machine did during that sweep hits both, and the ratio of the pair cancels it. The figure is the
/// median of the per-round ratios, with the interval of that median.
public enum Statistics {
    /// A median's interval wider than this fraction of it is marked "too noisy to trust".
    public static let trustedSpread = 0.25
    /// With fewer rounds than this a median has no 95 % interval (see `medianInterval(sorted:confidence:)`).
    public static let minimumRounds = 6

    public static func median(_ values: [Double]) -> Double {
        precondition(!values.isEmpty, "median: no values")
        return median(sorted: values.sorted())
    }

    static func median(sorted: [Double]) -> Double {
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    /// The median of `values` with its distribution-free interval; an interval without bounds (−∞, ∞) when there
    /// are too few values for `confidence`, and a point when every value is the same.
    public static func medianEstimate(_ values: [Double], confidence: Double = 0.95) -> Estimate {
        let sorted = values.sorted()
        let point = median(sorted: sorted)
        if sorted.first == sorted.last { return .exact(point) }
        guard let rank = intervalRank(count: sorted.count, confidence: confidence) else {
            return Estimate(value: point, low: -.infinity, high: .infinity)
        }
        return Estimate(value: point, low: sorted[rank - 1], high: sorted[sorted.count - rank])
    }

    /// The largest k for which the k-th smallest and k-th largest of `count` values enclose their median with at
    /// least `confidence`: each lies beyond the median with probability P(Binomial(count, ½) < k). Nil when even the
    /// extremes (k = 1) do not.
    static func intervalRank(count: Int, confidence: Double) -> Int? {
        let tail = (1 - confidence) / 2
        var below = 0.0  // P(B ≤ k − 1), grown one term at a time
        var rank: Int?
        for k in 1...max(1, count / 2) {
            // P(B = k − 1) = C(count, k − 1) / 2^count, in logarithms so that large counts do not underflow.
            let logTerm =
                lgamma(Double(count + 1)) - lgamma(Double(k)) - lgamma(Double(count - k + 2))
                - Double(count) * log(2.0)
            below += exp(logTerm)
            guard below <= tail else { break }
            rank = k
        }
        return rank
    }

    /// The median of the per-round ratios `a[i] / b[i]` with an interval from resampling pairs; nil without a
    /// usable pair (a reference round of zero has no ratio).
    public static func pairedRatio(_ a: [Double], over b: [Double], confidence: Double = 0.95) -> Estimate? {
        let ratios = zip(a, b).compactMap { $1 > 0 ? $0 / $1 : nil }
        guard !ratios.isEmpty else { return nil }
        return medianEstimate(ratios, confidence: confidence)
    }
}
