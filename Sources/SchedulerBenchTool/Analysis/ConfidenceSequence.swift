import Foundation
import SchedulerBench

/// An interval for a median that stays valid however often it is looked at: a *confidence sequence*.
///
/// `bench ab` looks at its intervals after every pair and stops once each cell can be told. A fixed-sample interval
/// looked at thirty times is thirty chances to be fooled: a 99 % interval re-checked after every pair misses its
/// median far more often than 1 time in 100. A confidence sequence covers the median at every look at once, with
/// probability at least `1 − miss` over the whole run (Ville's inequality), so stopping whenever it likes costs
/// nothing (Howard, Ramdas, McAuliffe and Sekhon, "Time-uniform, nonparametric, nonasymptotic confidence sequences",
/// Annals of Statistics 2021).
///
/// **The construction.** For the true median m, each value lies above m with probability ½, independently. For a
/// candidate m, the count k of values above it among n is therefore a fair coin's; the mixture of the likelihood
/// ratios of every other coin, weighted by a Beta(a, a) prior,
///
///     M(n, k) = B(a + k, a + n − k) / B(a, a) · 2ⁿ,
///
/// is a martingale of mean 1 under the fair coin, so it exceeds `1 / miss` at any n with probability at most `miss`.
/// The sequence holds every m whose M stays below that. k falls as m rises, so the set is the interval from the
/// (n − K)-th smallest value to the (n − K)-th largest, with K the largest count the bound accepts: the same shape as
/// the fixed interval of ``Statistics/medianEstimate(_:confidence:)``, only a little wider (at 40 values, the 10th
/// from each end against the 12th; at 100, the 33rd against the 37th). It assumes nothing about the noise's shape:
/// bimodal processes (TestScheduler's W1 has two speeds) are as welcome as normal ones.
package enum ConfidenceSequence {
    /// The prior's weight a: the tightest bounds between 20 and 200 values (a = 0.5 to 3 differ by one rank there).
    static let priorWeight = 2.0

    /// The median of `values` with the interval of the sequence at this look; unbounded while there are too few
    /// values for any bound (11 at `miss` 0.01), and a point when every value is the same.
    package static func median(_ values: [Double], miss: Double) -> Estimate {
        let sorted = values.sorted()
        let point = Statistics.median(sorted)
        // Too few values bound nothing, even when they agree: one pair's ratio is not yet a verdict.
        guard let rank = rank(count: sorted.count, miss: miss) else {
            return Estimate(value: point, low: -.infinity, high: .infinity)
        }
        if sorted.first == sorted.last { return .exact(point) }
        return Estimate(value: point, low: sorted[rank - 1], high: sorted[sorted.count - rank])
    }

    /// The rank r whose r-th smallest and r-th largest of `count` values bound the sequence; nil when none does.
    static func rank(count: Int, miss: Double) -> Int? {
        let bound = log(1 / miss)
        // The mixture grows as k leaves n / 2; K is the last count, walking down from n, that it accepts.
        for above in stride(from: count, through: (count + 1) / 2, by: -1)
        where logMixture(count: count, above: above) < bound {
            let rank = count - above
            return rank >= 1 ? rank : nil
        }
        return nil
    }

    /// log M(n, k): how far `above` of `count` values lying above a candidate median argue against it.
    static func logMixture(count: Int, above: Int) -> Double {
        let a = priorWeight
        return logBeta(a + Double(above), a + Double(count - above)) - logBeta(a, a) + Double(count) * log(2.0)
    }

    private static func logBeta(_ x: Double, _ y: Double) -> Double { lgamma(x) + lgamma(y) - lgamma(x + y) }
}
