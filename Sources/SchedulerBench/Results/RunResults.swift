import Foundation
import Histogram

/// Everything one run measured, as the rows of its two CSV files.
public struct RunResults: Sendable {
    public var summary: [SummaryRow]
    public var samples: [SampleRow]

    public init(summary: [SummaryRow], samples: [SampleRow]) {
        self.summary = summary
        self.samples = samples
    }

    /// Summarises observations made under one allocator.
    public init(observations: [Observation], metadata: RunMetadata, allocator: String) {
        summary = observations.map { observation in
            var percentiles: [String: Double] = [:]
            if let histogram = observation.histogram {
                for (metric, percentile) in MetricSpec.latencyPercentiles {
                    let column = metric.name == "max" ? "p_max" : metric.name
                    percentiles[column] = Double(percentile == 100 ? histogram.max : histogram.valueAtPercentile(percentile))
                }
            }
            return SummaryRow(
                metadata: metadata, allocator: allocator, backend: observation.backend.name,
                reference: observation.backend.wraps ?? "", workload: observation.workload.id,
                workloadName: observation.workload.name, parameters: observation.parameters.description,
                metric: observation.metric.name, unit: observation.metric.unit,
                lowerIsBetter: observation.metric.lowerIsBetter, summary: Statistics.summarize(observation.values),
                percentiles: percentiles
            )
        }
        samples = observations.flatMap { observation in
            observation.values.enumerated().map { round, value in
                SampleRow(metadata: metadata, allocator: allocator, backend: observation.backend.name,
                          workload: observation.workload.id, parameters: observation.parameters.description,
                          metric: observation.metric.name, unit: observation.metric.unit, round: round + 1, value: value)
            }
        }
        computeRatios()
    }

    /// Fills each row's ratio to its reference row and to the best scheduler backend of the same cell.
    mutating func computeRatios() {
        let cells = Dictionary(grouping: summary.indices) { index in
            let row = summary[index]
            return [row.allocator, row.workload, row.parameters, row.metric].joined(separator: "|")
        }
        for indices in cells.values {
            let byBackend = Dictionary(indices.map { (summary[$0].backend, summary[$0].summary.median) }) { first, _ in first }
            let schedulerMedians = indices.filter { Backend.named(summary[$0].backend)?.isReference == false }
                .map { summary[$0].summary.median }
            let lower = summary[indices[0]].lowerIsBetter
            let best = lower ? schedulerMedians.min() : schedulerMedians.max()
            for index in indices {
                let median = summary[index].summary.median
                if let reference = byBackend[summary[index].reference], reference > 0 {
                    summary[index].ratioToReference = median / reference
                }
                if let best, best > 0 { summary[index].ratioToFastest = median / best }
            }
        }
    }

    /// Writes `summary.csv` and `samples.csv` into a new folder `directory`, atomically (see ``BenchRun``).
    public func write(to directory: URL) throws {
        try BenchRun.writeFolder(directory, files: [
            "summary.csv": CSV.encode([SummaryRow.columns] + summary.map(\.fields)),
            "samples.csv": CSV.encode([SampleRow.columns] + samples.map(\.fields)),
        ])
    }
}
