import SchedulerBench
import ToolSupport

/// A row with an ideal configuration (``Workload/ideal``) against that ideal, on each side of a contest's pairs: each
/// process's figure on the row over its own figure on the ideal, so that a row where a task beside the timed one
/// decides the figure (W25) can still be shown out of reach (``OutOfReach/ideal``). The ideal makes the one decision
/// the row leaves to the global executor, at its best (W25 `consumer=after`: the consumer starts once the burst is
/// written).
struct GlobalExecutorIdealLine: Sendable {
    let cell: CellKey
    let ideal: Parameters
    /// A's (the challenger's) and B's (the champion's) row over its ideal, process by process.
    let a: Estimate
    let b: Estimate
    let minimumEffect: Double
    /// The pair's own verdicts on the row and on the ideal's row (B/A there).
    let rowVerdict: ABAnalysis.Verdict?
    let idealVerdict: ABAnalysis.Verdict?

    func isSame(_ ratio: Estimate) -> Bool {
        ABAnalysis.verdict(ratio, lowerIsBetter: true, minimumEffect: minimumEffect) == .same
    }

    /// What the ideal shows (``OutOfReach/ideal``): both sides the same as their ideal, and the pair the same on the
    /// row or on its ideal.
    var showsOutOfReach: Bool { isSame(a) && isSame(b) && (rowVerdict == .same || idealVerdict == .same) }

    /// The ideal lines of `pairs` (judged by `analysis`): one per timed cell whose workload names an ideal found in
    /// the run.
    static func lines(_ pairs: [ProcessPair], analysis: ABAnalysis) -> [GlobalExecutorIdealLine] {
        let minimumEffect = analysis.minimumEffect
        var ratios: [CellKey: (ideal: Parameters, a: [Double], b: [Double])] = [:]
        var order: [CellKey] = []
        for pair in pairs {
            for (side, rows) in [(0, pair.baseline), (1, pair.candidate)] {
                let figures = Dictionary(rows.map { ($0.key, $0.summary.median.value) }) { first, _ in first }
                for row in rows {
                    guard let workload = Workload.withID(row.workload), row.metric == workload.metrics.first,
                        let ideal = workload.ideal(row.parameters)
                    else { continue }
                    var idealKey = row.key
                    idealKey.parameters = ideal
                    guard let idealFigure = figures[idealKey], idealFigure > 0 else { continue }
                    if ratios[row.key] == nil {
                        order.append(row.key)
                        ratios[row.key] = (ideal, [], [])
                    }
                    let ratio = row.summary.median.value / idealFigure
                    if side == 0 { ratios[row.key]!.a.append(ratio) } else { ratios[row.key]!.b.append(ratio) }
                }
            }
        }
        return order.map { key in
            let found = ratios[key]!
            var idealKey = key
            idealKey.parameters = found.ideal
            return GlobalExecutorIdealLine(
                cell: key, ideal: found.ideal, a: ConfidenceSequence.median(found.a, miss: ABAnalysis.miss),
                b: ConfidenceSequence.median(found.b, miss: ABAnalysis.miss), minimumEffect: minimumEffect,
                rowVerdict: analysis.lines.first { $0.cell == key }?.verdict,
                idealVerdict: analysis.lines.first { $0.cell == idealKey }?.verdict)
        }
    }

    /// `ideals.csv`'s header and a row (the challenger and champion first).
    static let csvHeader = [
        "a_global_executor", "b_global_executor", "workload", "parameters", "metric", "backend", "ideal_parameters",
        "a_over_ideal", "a_low", "a_high", "b_over_ideal", "b_low", "b_high", "row_verdict", "ideal_verdict",
        OutOfReach.column,
    ]

    func csvRow(challenger: String, champion: String) -> [String] {
        [
            challenger, champion, cell.workload.rawValue, cell.parameters.description, cell.metric.name,
            cell.backend.rawValue, ideal.description, Format.number(a.value), Format.number(a.low),
            Format.number(a.high),
            Format.number(b.value), Format.number(b.low), Format.number(b.high), rowVerdict?.rawValue ?? "",
            idealVerdict?.rawValue ?? "", String(showsOutOfReach),
        ]
    }

    /// CONTEST.md's line under a challenger's table.
    func markdown(challenger: String, champion: String) -> String {
        "- \(cell.workload) \(cell.parameters) over its ideal (\(ideal), the same process): \(challenger) "
            + "\(Format.present(a)), \(champion) \(Format.present(b)); the pair on the row "
            + "\(rowVerdict?.rawValue ?? "not judged"), on the ideal \(idealVerdict?.rawValue ?? "not judged"). "
            + (showsOutOfReach
                ? "Both the same as their ideal within ±\(Int(minimumEffect * 100)) %, and the same as each other: "
                    + "*out of reach* (\(OutOfReach.ideal.rawValue))."
                : "Not shown out of reach by its ideal.")
    }
}
