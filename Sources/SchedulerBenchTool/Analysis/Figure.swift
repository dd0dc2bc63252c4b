import SchedulerBench

/// The figure of a summary row that is compared across runs: its paired ratio to the reference row of its own run
/// where it has one (whatever the machine did during the run then hits both sides and cancels), else its median.
package struct ComparedFigure: Sendable, Equatable {
    package enum Statistic: String, Sendable {
        case ratioToReference = "ratio_to_reference"
        case median
    }

    package var statistic: Statistic
    /// The figure, with its interval within its run (nil when the run did not write one).
    package var estimate: Estimate?
    package var value: Double

    package init(_ row: SummaryRow) {
        if row.reference != nil, !row.metric.isExactCount, let ratio = row.ratioToReference {
            statistic = .ratioToReference
            estimate = ratio
            value = ratio.value
        } else {
            statistic = .median
            estimate = row.summary.count >= Statistics.minimumRounds ? row.summary.median : nil
            value = row.summary.median.value
        }
    }
}

/// Quantiles of Student's t distribution, for prediction bounds from a few runs. Values are the standard table's
/// (two-sided 99 % and 95 %), interpolated on 1/ν between tabulated degrees of freedom.
enum StudentT {
    private static let freedoms: [Double] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 20, 30, 60, 120]
    private static let q995: [Double] = [
        63.657, 9.925, 5.841, 4.604, 4.032, 3.707, 3.499, 3.355, 3.250, 3.169,
        3.055, 2.947, 2.845, 2.750, 2.660, 2.617,
    ]
    private static let q975: [Double] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.179, 2.131, 2.086, 2.042, 2.000, 1.980,
    ]

    /// The 0.995 quantile (half-width factor of a two-sided 99 % bound).
    static func quantile995(_ freedom: Double) -> Double { quantile(freedom, q995, limit: 2.576) }
    /// The 0.975 quantile (two-sided 95 %).
    static func quantile975(_ freedom: Double) -> Double { quantile(freedom, q975, limit: 1.960) }

    private static func quantile(_ freedom: Double, _ table: [Double], limit: Double) -> Double {
        guard freedom >= 1 else { return .infinity }
        if freedom >= freedoms.last! {
            // Between the last entry and ν = ∞, linearly in 1/ν.
            let weight = freedoms.last! / freedom
            return limit + (table.last! - limit) * weight
        }
        let upper = freedoms.firstIndex { $0 >= freedom }!
        if freedoms[upper] == freedom { return table[upper] }
        let lower = upper - 1
        let position = (1 / freedoms[lower] - 1 / freedom) / (1 / freedoms[lower] - 1 / freedoms[upper])
        return table[lower] + (table[upper] - table[lower]) * position
    }
}
