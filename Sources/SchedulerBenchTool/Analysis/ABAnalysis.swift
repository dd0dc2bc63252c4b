import SchedulerBench

/// What `bench ab` concludes from pairs of processes, one of each build, run back to back (`Docs/Statistics.md`).
///
/// Each process gives a figure per cell (the median of its rounds). Each pair gives the ratio B/A of its two
/// processes, so whatever the machine did around that pair hits both; the cell's verdict rests on the median of those
/// ratios and its ``ConfidenceSequence``: an interval that stays valid however often it is looked at, since
/// `bench ab` looks again after every pair and stops once it can tell (a fixed interval re-checked after every pair
/// errs far more often than it says).
///
/// The margin is the user's (`--min-effect`, the smallest change of interest): a change is called when the interval
/// excludes no change at all (1.00x) and its median lies beyond the margin; two builds are the **same** when the whole
/// interval lies inside the margin. A change the interval proves but smaller than the margin is not claimed.
package struct ABAnalysis: Sendable {
    package enum Verdict: String, Sendable {
        case faster, slower
        /// The interval lies inside ±`minimumEffect`: no difference of that size.
        case same
        /// Neither: the interval reaches past ±`minimumEffect` and either holds 1 or has its median inside the
        /// margin. More pairs, `--cpus`, or a quieter machine.
        case undecided
    }

    package struct Line: Sendable {
        package let cell: CellKey
        /// The medians over the pairs of A's and of B's figures.
        package let baseline: Double
        package let candidate: Double
        /// B/A with its interval across pairs.
        package let ratio: Estimate
        package let pairs: Int
        package let verdict: Verdict
        /// The smallest change this comparison could have called for this cell, as a fraction (0.07 is 7 %): a true
        /// change shifts the interval without narrowing it, so it is called once the interval clears 1 (a change the
        /// size of the interval's half-width) and its median the margin. Nil for exact counts, which need no interval.
        package let smallestCallable: Double?
    }

    package let lines: [Line]
    package let minimumEffect: Double
    /// The chance, over a whole comparison however long, that a cell's interval ever misses its true ratio.
    package static let miss = 0.01
    /// Pairs before the sequence has any bound at ``miss`` (``ConfidenceSequence``).
    package static let pairsForABound = 12

    /// How the pairs ran: a duet's wall-clock cells are not judged (``Pairing/judges(_:)``).
    package let pairing: Pairing

    /// `pairs`: per pair, A's and B's summary rows. Cells missing from a process are left out of that pair, and so
    /// are the metrics `pairing` does not judge.
    package init(
        pairs: [(baseline: [SummaryRow], candidate: [SummaryRow])], minimumEffect: Double, pairing: Pairing
    ) {
        self.minimumEffect = minimumEffect
        self.pairing = pairing
        var figures: [CellKey: [(a: Double, b: Double)]] = [:]
        var order: [CellKey] = []
        var metrics: [CellKey: Metric] = [:]
        for pair in pairs {
            let candidate = Dictionary(pair.candidate.map { ($0.key, $0) }) { first, _ in first }
            for row in pair.baseline where pairing.judges(row.metric) {
                guard let other = candidate[row.key] else { continue }
                if figures[row.key] == nil { order.append(row.key) }
                figures[row.key, default: []].append((row.summary.median.value, other.summary.median.value))
                metrics[row.key] = row.metric
            }
        }
        lines = order.map { key in
            let values = figures[key]!
            let metric = metrics[key]!
            let ratio =
                metric.isExactCount
                ? Self.exactRatio(values)
                : Self.ratioSequence(values)
            return Line(
                cell: key, baseline: Statistics.median(values.map(\.a)), candidate: Statistics.median(values.map(\.b)),
                ratio: ratio, pairs: values.count,
                verdict: metric.isExactCount
                    ? Self.countVerdict(values, metric: metric)
                    : Self.verdict(ratio, lowerIsBetter: metric.lowerIsBetter, minimumEffect: minimumEffect),
                smallestCallable: metric.isExactCount || !ratio.low.isFinite || !ratio.high.isFinite
                    ? nil : max(minimumEffect, (ratio.high - ratio.low) / 2))
        }
    }

    /// The median of the pairs' ratios B/A with its confidence sequence; pairs whose A is 0 have no ratio.
    static func ratioSequence(_ values: [(a: Double, b: Double)]) -> Estimate {
        let ratios = values.compactMap { $0.a > 0 ? $0.b / $0.a : nil }
        return ratios.isEmpty ? .exact(1) : ConfidenceSequence.median(ratios, miss: miss)
    }

    private static func exactRatio(_ values: [(a: Double, b: Double)]) -> Estimate {
        let a = Statistics.median(values.map(\.a))
        let b = Statistics.median(values.map(\.b))
        return .exact(a == 0 ? (b == 0 ? 1 : .infinity) : b / a)
    }

    /// Exact counts are compared as counts: the same within the metric's count tolerance, else the direction of the
    /// difference, with no interval (sub-unit jitter is never a verdict).
    static func countVerdict(_ values: [(a: Double, b: Double)], metric: Metric) -> Verdict {
        let a = Statistics.median(values.map(\.a))
        let b = Statistics.median(values.map(\.b))
        if metric.sameCount(a, b) { return .same }
        return (b > a) == metric.lowerIsBetter ? .slower : .faster
    }

    static func verdict(_ ratio: Estimate, lowerIsBetter: Bool, minimumEffect: Double) -> Verdict {
        let (upper, lower) = (1 + minimumEffect, 1 / (1 + minimumEffect))
        let higher: Verdict = lowerIsBetter ? .slower : .faster
        let lowerVerdict: Verdict = lowerIsBetter ? .faster : .slower
        if ratio.low >= lower && ratio.high <= upper { return .same }
        if ratio.low > 1 && ratio.value > upper { return higher }
        if ratio.high < 1 && ratio.value < lower { return lowerVerdict }
        return .undecided
    }

    /// Whether another pair could still change a verdict: some measured cell is undecided.
    package var wantsMorePairs: Bool { lines.contains { $0.verdict == .undecided } }

    package func count(_ verdict: Verdict) -> Int { lines.filter { $0.verdict == verdict }.count }
}
