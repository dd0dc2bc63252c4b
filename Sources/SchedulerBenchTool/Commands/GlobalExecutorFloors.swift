import SchedulerBench
import ToolSupport

/// A row with a floor configuration (``Workload/floor``) against that floor, on each side of a contest's pairs: each
/// process's figure on the row over its own figure on the floor, so that a row where a task beside the timed one
/// decides the figure (W25) can still be shown out of reach. A floor configuration makes the one decision the row
/// leaves to the global executor, at its best (W25 `consumer=after`: the consumer starts once the burst is written).
/// Where both executors of a pair are the *same* as their floor (the 99 % confidence sequence of the ratios inside
/// the contest's margin), neither can do better on the row by placing work better; and where the pair is also the
/// same on the row or on the floor row, neither can be ahead on the row but by noise: that pair is *at the floor* by
/// its floor row.
struct GlobalExecutorFloorLine: Sendable {
    let cell: CellKey
    let floor: Parameters
    /// A's (the challenger's) and B's (the champion's) row over floor, process by process.
    let a: Estimate
    let b: Estimate
    let minimumEffect: Double
    /// The pair's own verdicts on the row and on the floor row (B/A there).
    let rowVerdict: ABAnalysis.Verdict?
    let floorVerdict: ABAnalysis.Verdict?

    func isSame(_ ratio: Estimate) -> Bool {
        ABAnalysis.verdict(ratio, lowerIsBetter: true, minimumEffect: minimumEffect) == .same
    }

    /// Both sides are the same as their floor, and the pair is the same on the row or on its floor.
    var atFloor: Bool { isSame(a) && isSame(b) && (rowVerdict == .same || floorVerdict == .same) }

    /// The floor lines of `pairs` (judged by `analysis`): one per timed cell whose workload names a floor
    /// configuration found in the run.
    static func lines(_ pairs: [ProcessPair], analysis: ABAnalysis) -> [GlobalExecutorFloorLine] {
        let minimumEffect = analysis.minimumEffect
        var ratios: [CellKey: (floor: Parameters, a: [Double], b: [Double])] = [:]
        var order: [CellKey] = []
        for pair in pairs {
            for (side, rows) in [(0, pair.baseline), (1, pair.candidate)] {
                let figures = Dictionary(rows.map { ($0.key, $0.summary.median.value) }) { first, _ in first }
                for row in rows {
                    guard let workload = Workload.withID(row.workload), row.metric == workload.metrics.first,
                        let floor = workload.floor(row.parameters)
                    else { continue }
                    var floorKey = row.key
                    floorKey.parameters = floor
                    guard let floorFigure = figures[floorKey], floorFigure > 0 else { continue }
                    if ratios[row.key] == nil {
                        order.append(row.key)
                        ratios[row.key] = (floor, [], [])
                    }
                    let ratio = row.summary.median.value / floorFigure
                    if side == 0 { ratios[row.key]!.a.append(ratio) } else { ratios[row.key]!.b.append(ratio) }
                }
            }
        }
        return order.map { key in
            let found = ratios[key]!
            var floorKey = key
            floorKey.parameters = found.floor
            return GlobalExecutorFloorLine(
                cell: key, floor: found.floor, a: ConfidenceSequence.median(found.a, miss: ABAnalysis.miss),
                b: ConfidenceSequence.median(found.b, miss: ABAnalysis.miss), minimumEffect: minimumEffect,
                rowVerdict: analysis.lines.first { $0.cell == key }?.verdict,
                floorVerdict: analysis.lines.first { $0.cell == floorKey }?.verdict)
        }
    }

    /// `floors.csv`'s header and a row (the challenger and champion first).
    static let csvHeader = [
        "a_global_executor", "b_global_executor", "workload", "parameters", "metric", "backend", "floor_parameters",
        "a_over_floor", "a_low", "a_high", "b_over_floor", "b_low", "b_high", "row_verdict", "floor_verdict",
        "at_floor",
    ]

    func csvRow(challenger: String, champion: String) -> [String] {
        [
            challenger, champion, cell.workload.rawValue, cell.parameters.description, cell.metric.name,
            cell.backend.rawValue, floor.description, Format.number(a.value), Format.number(a.low),
            Format.number(a.high),
            Format.number(b.value), Format.number(b.low), Format.number(b.high), rowVerdict?.rawValue ?? "",
            floorVerdict?.rawValue ?? "", String(atFloor),
        ]
    }

    /// CONTEST.md's line under a challenger's table.
    func markdown(challenger: String, champion: String) -> String {
        "- \(cell.workload) \(cell.parameters) over its floor (\(floor), the same process): \(challenger) "
            + "\(Format.present(a)), \(champion) \(Format.present(b)); the pair on the row "
            + "\(rowVerdict?.rawValue ?? "not judged"), on the floor row \(floorVerdict?.rawValue ?? "not judged"). "
            + (atFloor
                ? "Both the same as their floor within ±\(Int(minimumEffect * 100)) %, and the same as each other: "
                    + "*at the floor*."
                : "Not at the floor.")
    }
}
