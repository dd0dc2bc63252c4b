import Foundation
import SchedulerBench

/// A format another tool ingests, written from a stored run (`bench export`). Each keeps what it has a place for:
/// the median, its 95 % interval (where the format has one), and the rounds (JMH).
///
/// Every format names a cell the same way (``ExportedCell``), so one cell keeps one name across runs and tools.
package enum ExportFormat: String, CaseIterable, Sendable {
    /// Bencher Metric Format: `{"<benchmark>": {"<measure>": {"value", "lower_value", "upper_value"}}}`.
    case bmf
    /// github-action-benchmark's `customSmallerIsBetter`: `[{"name", "unit", "value", "range", "extra"}]`, the rows
    /// where lower is better.
    case githubActionBenchmark = "github-action-benchmark"
    /// The same for `customBiggerIsBetter`: the rows where higher is better (github-action-benchmark takes one
    /// direction per file).
    case githubActionBenchmarkBigger = "github-action-benchmark-bigger"
    /// JMH's JSON result list, as JMH Visualizer and Jenkins' JMH plugin read it.
    case jmh

    /// The exported file and how many of the run's rows it left out (rows of the other direction, for
    /// github-action-benchmark).
    package func render(_ run: RunData) throws -> (json: String, leftOut: Int) {
        let cells = run.summary.map { ExportedCell(row: $0, rounds: run.measuredValues(of: $0)) }
        switch self {
        case .bmf:
            return (try Self.encode(BencherMetricFormat(cells)), 0)
        case .githubActionBenchmark, .githubActionBenchmarkBigger:
            let lowerIsBetter = self == .githubActionBenchmark
            let kept = cells.filter { $0.row.metric.lowerIsBetter == lowerIsBetter }
            return (try Self.encode(kept.map(GitHubActionBenchmarkEntry.init)), cells.count - kept.count)
        case .jmh:
            return (try Self.encode(cells.map(JMHResult.init)), 0)
        }
    }

    /// Sorted keys, so that two exports of one run are byte for byte the same.
    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .throw
        return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
    }
}

/// One summary row as the exports see it: its name, and its rounds.
struct ExportedCell {
    var row: SummaryRow
    var rounds: [Double]

    /// `W1 throughput · dispatch · tasks=200000 · jemalloc`: the workload, the backend, the parameters and the
    /// allocator, which together name a cell in every run of every machine (the metric is named apart).
    var benchmark: String {
        [
            "\(row.workload) \(row.workloadName)", row.backend.rawValue, row.parameters.description,
            row.allocator.rawValue,
        ]
        .filter { !$0.isEmpty }.joined(separator: " · ")
    }

    /// An exact count has no interval; a measured figure has its median's.
    var interval: Estimate? { row.metric.isExactCount ? nil : row.summary.median }

    /// What a reader should know beside the figure: rounds, trust, and the run it came from.
    var provenance: String {
        let metadata = row.metadata
        var facts = ["\(row.summary.count) round\(row.summary.count == 1 ? "" : "s")"]
        if !row.metric.isExactCount {
            facts.append(row.isTrusted ? "trusted" : "untrusted (re-run before citing)")
        }
        facts.append("run \(metadata.runID), commit \(metadata.gitCommit), \(metadata.machine)")
        return facts.joined(separator: "; ")
    }
}
