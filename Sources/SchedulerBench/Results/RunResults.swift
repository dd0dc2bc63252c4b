import Foundation
import Histogram

/// Everything one run measured, as the rows of its two CSV files.
public struct RunResults: Sendable {
    public var summary: [SummaryRow]
    var samples: [SampleRow]

    /// The rows of a run's `summary.csv` (its `samples.csv`, every round's value, is in its folder).
    public init(summary: [SummaryRow]) { self.init(summary: summary, samples: []) }

    init(summary: [SummaryRow], samples: [SampleRow]) {
        self.summary = summary
        self.samples = samples
    }

    /// Summarises the cells measured under one allocator: per backend and metric, the median with its interval and
    /// modes, and the paired ratios to the reference row and to the cell's fastest scheduler backend.
    init(cells: [CellMeasurement], metadata: RunMetadata, allocator: AllocatorChoice) {
        summary = []
        samples = []
        for cell in cells {
            for metric in cell.workload.allMetrics {
                let raw = cell.backends.compactMap { entry in entry.values(of: metric).map { (entry, $0) } }
                // Figures and ratios rest on the rounds at the cell's median machine level; samples.csv keeps both.
                let levelled = RoundLevels.adjusted(raw.map(\.1), of: metric)
                let measured = zip(raw, levelled).map { ($0.0, $1) }
                for ((entry, values), measuredValues) in zip(measured, raw.map(\.1)) {
                    let fastest = Self.fastest(measured, like: entry.backend, metric: metric)
                    var row = SummaryRow(
                        metadata: metadata, allocator: allocator, backend: entry.backend.id,
                        reference: entry.backend.wraps,
                        workload: cell.workload.id, workloadName: cell.workload.name, parameters: cell.parameters,
                        metric: metric, summary: SampleSummary(values, measured: measuredValues))
                    if let reference = entry.backend.wraps,
                        let theirs = measured.first(where: { $0.0.backend.id == reference })
                    {
                        row.ratioToReference = Self.ratio(values, theirs.1, exact: metric.isExactCount)
                    }
                    if let fastest {
                        row.fastest = fastest.0.backend.id
                        row.ratioToFastest = Self.ratio(values, fastest.1, exact: metric.isExactCount)
                    }
                    let timed = entry.counted[metric] == nil ? entry.rounds : []
                    if let histogram = Self.merged(timed) {
                        row.percentiles = RoundResult.percentiles(of: histogram)
                    }
                    row.roundMilliseconds = Self.median(timed.map { $0.seconds * 1000 })
                    row.repetitions = Self.median(timed.map { Double($0.repetitions) })
                    row.contextSwitches = Self.median(timed.compactMap(\.contextSwitches))
                    row.migrations = Self.median(timed.compactMap(\.migrations))
                    summary.append(row)
                    samples += measuredValues.enumerated().map { index, value in
                        let round = timed.indices.contains(index) ? timed[index] : nil
                        return SampleRow(
                            metadata: metadata, allocator: allocator, backend: entry.backend.id,
                            workload: cell.workload.id, parameters: cell.parameters, metric: metric,
                            round: index + 1, value: value, levelled: values[index], repetitions: round?.repetitions,
                            roundMilliseconds: round.map { $0.seconds * 1000 },
                            contextSwitches: round?.contextSwitches, migrations: round?.migrations)
                    }
                }
            }
        }
    }

    /// The scheduler backend (not a reference row) with the best median of the cell among those of the same kind as
    /// `backend`: hand-offs (asynchronous) are ranked among hand-offs, inline and virtual-time schedulers among
    /// themselves, since a call on the caller's stack is no alternative to a hop onto another thread.
    private static func fastest(_ measured: [(BackendRounds, [Double])], like backend: Backend, metric: Metric)
        -> (BackendRounds, [Double])?
    {
        let schedulers = measured.filter {
            !$0.0.backend.isReference && !$0.1.isEmpty && $0.0.backend.handsOff == backend.handsOff
        }
        let better = { (a: (BackendRounds, [Double]), b: (BackendRounds, [Double])) in
            let (x, y) = (Statistics.median(a.1), Statistics.median(b.1))
            return metric.lowerIsBetter ? x < y : x > y
        }
        return schedulers.min(by: better)
    }

    /// Paired ratio of a cell's two backends; counted figures are exact, so their ratio is one of medians.
    private static func ratio(_ values: [Double], _ reference: [Double], exact: Bool) -> Estimate? {
        guard exact else { return Statistics.pairedRatio(values, over: reference) }
        let bottom = Statistics.median(reference)
        return bottom > 0 ? .exact(Statistics.median(values) / bottom) : nil
    }

    private static func merged(_ rounds: [RoundRecord]) -> Histogram<UInt64>? {
        let histograms = rounds.compactMap(\.result.histogram)
        guard var merged = histograms.first else { return nil }
        for histogram in histograms.dropFirst() { merged.add(histogram) }
        return merged
    }

    private static func median(_ values: [Double]) -> Double? { values.isEmpty ? nil : Statistics.median(values) }

    /// The summary table `bench run` prints: per (workload, parameters), one line per backend.
    public var table: String { SummaryTable.render(summary) }
}
