/// What `bench ab` concludes from pairs of processes, one of each build, run back to back (`Docs/Statistics.md`).
///
/// Each process gives a figure per cell (the median of its rounds). Each pair gives the ratio B/A of its two
/// processes, so whatever the machine did around that pair hits both; the cell's verdict rests on the median of those
/// ratios and its distribution-free interval across pairs (order statistics, `Docs/Statistics.md`). A difference smaller than `minimumEffect` is never claimed: with
/// enough pairs, the interval of a build against itself lies inside that band ("same"). The interval is a 99 % one,
/// because `bench ab` looks again after every pair and stops once it can tell: each look is one more chance to be
/// fooled, and a 95 % interval looked at thirty times errs more often than one time in twenty.
public struct ABAnalysis: Sendable {
    public enum Verdict: String, Sendable {
        case faster, slower
        /// The interval lies inside ±`minimumEffect`: no difference of that size.
        case same
        /// The interval reaches past ±`minimumEffect` and over 1 too: more pairs, `--cpus`, or a quieter machine.
        case undecided
    }

    public struct Line: Sendable {
        public let cell: CellKey
        /// The medians over the pairs of A's and of B's figures.
        public let baseline: Double
        public let candidate: Double
        /// B/A with its interval across pairs.
        public let ratio: Estimate
        public let pairs: Int
        public let verdict: Verdict
        /// The smallest change this comparison could have called for this cell, as a fraction (0.07 is 7 %): a true
        /// change shifts the interval without narrowing it, so it is called once its interval clears the band, i.e. at
        /// the band plus the interval's half-width. Nil for exact counts, which need no interval.
        public let smallestCallable: Double?
    }

    public let lines: [Line]
    public let minimumEffect: Double
    public static let confidence = 0.99

    /// `pairs`: per pair, A's and B's summary rows. Cells missing from a process are left out of that pair.
    public init(pairs: [(baseline: [SummaryRow], candidate: [SummaryRow])], minimumEffect: Double) {
        self.minimumEffect = minimumEffect
        var figures: [CellKey: [(a: Double, b: Double)]] = [:]
        var order: [CellKey] = []
        var metrics: [CellKey: Metric] = [:]
        for pair in pairs {
            let candidate = Dictionary(pair.candidate.map { ($0.key, $0) }) { first, _ in first }
            for row in pair.baseline {
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
                : Statistics.pairedRatio(values.map(\.b), over: values.map(\.a), confidence: Self.confidence)
                    ?? .exact(1)
            return Line(
                cell: key, baseline: Statistics.median(values.map(\.a)), candidate: Statistics.median(values.map(\.b)),
                ratio: ratio, pairs: values.count,
                verdict: metric.isExactCount
                    ? Self.countVerdict(values, metric: metric)
                    : Self.verdict(ratio, lowerIsBetter: metric.lowerIsBetter, minimumEffect: minimumEffect),
                smallestCallable: metric.isExactCount || !ratio.low.isFinite || !ratio.high.isFinite
                    ? nil : minimumEffect + (ratio.high - ratio.low) / 2)
        }
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
        if ratio.low > upper { return higher }
        if ratio.high < lower { return lowerVerdict }
        if ratio.low >= lower && ratio.high <= upper { return .same }
        return .undecided
    }

    /// Whether another pair could still change a verdict: some measured cell is undecided.
    public var wantsMorePairs: Bool { lines.contains { $0.verdict == .undecided } }

    public func count(_ verdict: Verdict) -> Int { lines.filter { $0.verdict == verdict }.count }
}
