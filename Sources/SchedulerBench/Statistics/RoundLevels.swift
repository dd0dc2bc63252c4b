import Foundation

/// The machine's level in each round of a cell, taken out of each backend's rounds (`Docs/Statistics.md`, "The level a
/// round shares").
///
/// Round *i* of every backend of a cell ran in one sweep, seconds apart. On a shared VM the machine's speed moves in
/// steps that last many rounds (W2 with 8 producers: every backend 1.7x slower for the last four rounds of ten), so a
/// backend's rounds spread with the machine, not with the backend. The other backends of the sweep see that step too.
///
/// This is a randomised block design with the round level as a covariate:
/// - the level of round *i*, for backend *b*, is the median over the *other* backends of how far their round *i* lay
///   from their own median, on the log scale (b's own noise is not in its level);
/// - b's sensitivity to the level is the least-squares slope of b's log rounds on it, clamped to 0…2 (a backend can
///   ignore the machine, as NIO's event loop often does, or feel it twice; it never gains from a slow machine);
/// - round *i* of b is moved to the run's median level by that slope times the distance. The slope used for round *i*
///   is fitted *without* round *i*, so a round's own noise cannot explain itself away.
///
/// Without a common level (independent noise) the adjusted rounds keep the raw rounds' coverage and width; with a level
/// step their interval narrows about threefold (the unit tests simulate both). A cell needs ``minimumBackends``
/// backends whose rounds are all positive and not all equal; the rest pass through unchanged, as do cells with fewer.
package enum RoundLevels {
    /// Below this many usable backends the level of a round is one or two other backends' noise, not the machine's.
    package static let minimumBackends = 4
    static let slopeRange = 0.0...2.0

    /// Each lane's rounds of `metric` at the cell's median level; lanes that cannot be adjusted come back as they
    /// were, and so do exact counts, which no machine moves. All lanes of a cell have one value per round, round *i*
    /// of each from the same sweep.
    package static func adjusted(_ lanes: [[Double]], of metric: Metric) -> [[Double]] {
        let usable = lanes.indices.filter { isUsable(lanes[$0]) }
        guard !metric.isExactCount, usable.count >= minimumBackends else { return lanes }
        let logs = lanes.map { $0.map { $0 > 0 ? Foundation.log($0) : 0 } }
        let medians = logs.map { $0.isEmpty ? 0 : Statistics.median($0) }
        var result = lanes
        for lane in usable {
            let others = usable.filter { $0 != lane && lanes[$0].count == lanes[lane].count }
            guard others.count >= minimumBackends - 1 else { continue }
            let level = lanes[lane].indices.map { round in
                Statistics.median(others.map { logs[$0][round] - medians[$0] })
            }
            let middle = Statistics.median(level)
            let own = logs[lane]
            result[lane] = own.indices.map { round in
                let slope = crossFittedSlope(of: own, on: level, leavingOut: round)
                return Foundation.exp(own[round] - slope * (level[round] - middle))
            }
        }
        return result
    }

    private static func isUsable(_ values: [Double]) -> Bool {
        values.count >= Statistics.minimumRounds && values.allSatisfy { $0 > 0 && $0.isFinite }
            && values.min() != values.max()
    }

    /// The least-squares slope of `y` on `x` over every point but `left`, clamped to ``slopeRange``; 0 when `x` does
    /// not vary there.
    static func crossFittedSlope(of y: [Double], on x: [Double], leavingOut left: Int) -> Double {
        let kept = y.indices.filter { $0 != left }
        let count = Double(kept.count)
        let meanX = kept.reduce(0) { $0 + x[$1] } / count
        let meanY = kept.reduce(0) { $0 + y[$1] } / count
        let spread = kept.reduce(0) { $0 + (x[$1] - meanX) * (x[$1] - meanX) }
        guard spread > 0 else { return 0 }
        let together = kept.reduce(0) { $0 + (x[$1] - meanX) * (y[$1] - meanY) }
        return min(max(together / spread, slopeRange.lowerBound), slopeRange.upperBound)
    }
}
