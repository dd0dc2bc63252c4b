import Foundation
import SchedulerBench
import SchedulerConformance
import ToolSupport

/// A run as stored: its summary rows and, where `samples.csv` is beside them, every round's value of every cell
/// (goals and re-analyses pair rounds; the summary alone cannot).
package struct RunData: Sendable {
    package var summary: [SummaryRow]
    /// Every cell's rounds as measured (`samples.csv`'s `value`).
    package let rounds: [CellKey: [Double]]
    /// The same rounds at their cell's median machine level (`RoundLevels`): what figures and ratios rest on.
    package let levelledRounds: [CellKey: [Double]]
    /// The folder it was read from, as named.
    package var source: String

    package init(summary: [SummaryRow], rounds: [CellKey: [Double]] = [:], source: String = "") {
        self.summary = summary
        self.rounds = rounds
        self.levelledRounds = Self.levelled(rounds)
        self.source = source
    }

    /// Recomputed from the measured rounds, whichever build wrote them, so that every run is read one way.
    private static func levelled(_ rounds: [CellKey: [Double]]) -> [CellKey: [Double]] {
        let cells = Dictionary(grouping: rounds.keys) { key in
            var cell = key
            cell.backend = BackendID(rawValue: "")
            return cell
        }
        var result = rounds
        for lanes in cells.values {
            let levelled = RoundLevels.adjusted(lanes.map { rounds[$0]! }, of: lanes[0].metric)
            for (key, values) in zip(lanes, levelled) { result[key] = values }
        }
        return result
    }

    /// Reads a run folder, or a `summary.csv` (with the `samples.csv` beside it when there is one).
    package static func load(_ path: String) throws -> RunData {
        let summaryPath = try RunStore.summaryFile(path)
        let summary = try SummaryRow.read(summaryPath)
        guard !summary.isEmpty else { throw BenchError.input("\(summaryPath) has no rows; run bench first") }
        let samplesPath = (summaryPath as NSString).deletingLastPathComponent + "/samples.csv"
        var rounds: [CellKey: [(Int, Double)]] = [:]
        if FileManager.default.fileExists(atPath: samplesPath) {
            for record in try CSVTable(contentsOf: samplesPath, required: Self.sampleColumns).records {
                let round = (Int(try record.number("round")), try record.number("value"))
                rounds[try CellKey(sampleRecord: record), default: []].append(round)
            }
        }
        return RunData(summary: summary, rounds: rounds.mapValues { $0.sorted { $0.0 < $1.0 }.map(\.1) }, source: path)
    }

    /// The columns of `samples.csv` a run is read by (`Docs/Results.md`).
    static let sampleColumns = ["allocator", "backend", "workload", "parameters", "metric", "round", "value"]

    package var metadata: RunMetadata? { summary.first?.metadata }

    /// The allocators of the run, jemalloc first.
    package var allocators: [AllocatorChoice] {
        AllocatorChoice.allCases.filter { allocator in
            allocator != .both && summary.contains { $0.allocator == allocator }
        }
        .sorted { first, _ in first == .jemalloc }
    }

    /// The row of a cell whose parameters include `parameters` (the first such row).
    package func row(
        _ backend: BackendID, _ workload: WorkloadID, _ metric: Metric, allocator: AllocatorChoice,
        parameters: Parameters = Parameters([:])
    ) -> SummaryRow? {
        summary.first {
            $0.backend == backend && $0.workload == workload && $0.metric == metric
                && $0.allocator == allocator && $0.parameters.contains(parameters)
        }
    }

    /// A row's rounds in order, at the cell's median machine level; its median alone when the run has no
    /// `samples.csv`.
    package func values(of row: SummaryRow) -> [Double] { levelledRounds[row.key] ?? [row.summary.median.value] }

    /// A row's rounds in order as measured.
    package func measuredValues(of row: SummaryRow) -> [Double] { rounds[row.key] ?? [row.summary.median.value] }
}
