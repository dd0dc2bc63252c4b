import SchedulerBench
import SchedulerConformance
import ToolSupport

/// One question of the report answered as a table: a row per candidate, best first by the first column, and a
/// headline computed from those same rows, so that the sentence and the table cannot disagree (`ReportPageTests`).
///
/// Only like is ranked with like: the caller chooses candidates of one kind (hand-offs, or inline schedulers), and a
/// difference is claimed only where the paired ratio's interval lies wholly on one side of 1 (``Versus``).
struct Ranking {
    /// One column: a metric of one cell, and the unit its figures and their bounds are written in.
    struct Column {
        let header: String
        let workload: WorkloadID
        let metric: Metric
        var parameters = Parameters([:])
        /// The unit in the header, and what one of it is in the metric's own unit (1 000 for µs over ns).
        var unit: (name: String, size: Double) = ("", 1)

        var title: String { unit.name.isEmpty ? header : "\(header) (\(unit.name))" }
        func format(_ value: Double) -> String { Format.short(value / unit.size) }
    }

    let view: RunView
    let columns: [Column]
    /// The candidates that have a row in the first column, best first.
    let rows: [BackendID]

    init(_ view: RunView, _ candidates: [BackendID], _ columns: [Column]) {
        self.view = view
        self.columns = columns
        let first = columns[0]
        let measured = candidates.compactMap { view.row($0, first.workload, first.metric, first.parameters) }
        rows = measured.sorted {
            first.metric.lowerIsBetter
                ? $0.summary.median.value < $1.summary.median.value
                : $0.summary.median.value > $1.summary.median.value
        }.map(\.backend)
    }

    func row(_ backend: BackendID, _ column: Column) -> SummaryRow? {
        view.row(backend, column.workload, column.metric, column.parameters)
    }

    /// The best of `column` and how it stands against the runner-up: "`threadpool`, 2.39x (2.25–2.48) ahead of
    /// `dispatch`", or "within noise of" when the interval straddles 1.
    func leader(of column: Column) -> String? {
        let ranked = rows.compactMap { row($0, column) }.sorted {
            column.metric.lowerIsBetter
                ? $0.summary.median.value < $1.summary.median.value
                : $0.summary.median.value > $1.summary.median.value
        }
        guard let best = ranked.first else { return nil }
        guard ranked.count > 1 else { return "`\(best.backend)`" }
        let next = ranked[1]
        if column.metric.isExactCount {
            // Counts are exact: any difference beyond rounding is real, including one against zero.
            let (a, b) = (best.summary.median.value, next.summary.median.value)
            if column.metric.sameCount(a, b) { return "`\(best.backend)`, level with `\(next.backend)`" }
            return "`\(best.backend)`, \(column.format(a)) against `\(next.backend)`'s \(column.format(b))"
        }
        let versus = column.metric.lowerIsBetter ? view.versus(next, best) : view.versus(best, next)
        switch versus {
        case .higher(let times): return "`\(best.backend)`, \(Format.short(times))x ahead of `\(next.backend)`"
        case .lower, .withinNoise: return "`\(best.backend)`, within noise of `\(next.backend)`"
        }
    }

    /// "Best: …" for the first column, and per further column when asked.
    func headline(everyColumn: Bool = false) -> String? {
        guard let first = leader(of: columns[0]) else { return nil }
        guard everyColumn, columns.count > 1 else { return "Best: " + first + "." }
        let parts = columns.compactMap { column in leader(of: column).map { "\(column.header): \($0)" } }
        return "Best by column: " + parts.joined(separator: "; ") + "."
    }

    /// The markdown table: figures with their intervals (`?` where one is wider than `Statistics.trustedSpread` of
    /// its median); with one column, also its paired ratio to the best row and to the primitive the backend wraps.
    func table() -> [String] {
        guard let best = rows.first, let bestRow = row(best, columns[0]) else { return [] }
        let ratios = columns.count == 1
        var lines = [
            "| scheduler | " + columns.map(\.title).joined(separator: " | ")
                + (ratios ? " | vs best | vs what it wraps |" : " |"),
            "|---|" + String(repeating: "---:|", count: columns.count + (ratios ? 2 : 0)),
        ]
        for backend in rows {
            let cells = columns.map { column -> String in
                guard let row = row(backend, column) else { return "-" }
                let text = Format.interval(of: row.summary.median, column.format)
                return row.isTrusted ? text : text + " ?"
            }
            guard let mine = row(backend, columns[0]) else { continue }
            guard ratios else {
                lines.append("| `\(backend)` | " + cells.joined(separator: " | ") + " |")
                continue
            }
            let versusBest = backend == best ? "best" : view.ratio(mine, bestRow).map(Format.present) ?? "-"
            let wrapped =
                mine.reference.flatMap { reference in
                    row(reference, columns[0]).flatMap { view.ratio(mine, $0) }.map {
                        "\(Format.present($0)) `\(reference)`"
                    }
                } ?? "-"
            lines.append("| `\(backend)` | " + cells.joined(separator: " | ") + " | \(versusBest) | \(wrapped) |")
        }
        return lines
    }
}
