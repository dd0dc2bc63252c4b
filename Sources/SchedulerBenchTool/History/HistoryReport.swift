import SchedulerBench
import ToolSupport

extension History {
    /// The series whose cell contains `cell` and whose metric is `metric` (each nil: any).
    package func series(cell: String?, metric: String?) -> [HistorySeries] {
        series.filter { series in
            (cell.map { series.cell.contains($0) } ?? true) && (metric.map { series.metric == $0 } ?? true)
        }
    }

    /// Every change point of `series`, one line each in run order, then a tally.
    package func changes(of series: [HistorySeries], calibrations: CalibrationBook) -> String {
        let found = series.flatMap { one in calibrations.changePoints(of: one).map { (one, $0) } }
            .sorted { $0.1.runID < $1.1.runID }
        var table = TextTable(["began at", "run", "cell", "metric", "figure", "before", "after", "step", "note"])
        for (one, change) in found {
            table.add([
                change.commit, change.runID, one.cell, one.metric,
                one.statistic == "ratio_to_reference"
                    ? "vs reference" : (one.points.first?.isExact == true ? "count" : "median"),
                Format.short(change.before),
                Format.short(change.after), Format.short(change.ratio) + "x",
                change.machineChanged ? "machines differ" : "",
            ])
        }
        let runs = runIDs.count
        return (found.isEmpty ? "" : table.render() + "\n")
            + "\(found.count) change point\(found.count == 1 ? "" : "s") in \(series.count) series over \(runs) runs "
            + "(a step of at least \(Int(ChangePoint.smallestStep * 100)) % within \(ChangePoint.window) runs, every "
            + "run on each side beyond the other side's intervals, \(ChangePoint.confirmingRuns) runs at the new level; "
            + "a measured figure also beyond its calibrated noise bound, and not judged where no calibration covers its runs)."
    }

    /// One series run by run: commit, figure, interval and a bar, with its change points marked.
    package func chart(of series: HistorySeries, calibrations: CalibrationBook) -> String {
        let changes = Dictionary(uniqueKeysWithValues: calibrations.changePoints(of: series).map { ($0.index, $0) })
        let largest = series.points.map(\.high).max() ?? 0
        var table = TextTable([
            "run", "commit", series.statistic == "ratio_to_reference" ? "vs reference" : series.metric, "interval", "",
            "change",
        ])
        for (index, point) in series.points.enumerated() {
            let width = largest > 0 ? Int((point.value / largest * 40).rounded()) : 0
            table.add([
                point.runID, point.commit, Format.short(point.value),
                point.isExact ? "exact" : "\(Format.short(point.low))–\(Format.short(point.high))",
                String(repeating: "█", count: max(0, width)),
                changes[index].map { "◀ \(Format.short($0.ratio))x began here" } ?? "",
            ])
        }
        return "\(series.cell) · \(series.metric)\n" + table.render()
    }
}
