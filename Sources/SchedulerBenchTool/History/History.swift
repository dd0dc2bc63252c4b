import Foundation
import SchedulerBench
import ToolSupport

/// The history: one row per cell per reference run, in the order the runs were made, kept in `Results/history/`
/// (``HistoryFolder``). A complete full run adds itself when it is written; `bench history add` adds stored runs
/// (older ones, from git).
package struct History: Sendable {
    package var rows: [HistoryRow]

    package init(rows: [HistoryRow] = []) { self.rows = rows }

    /// The rows of a history file in one CSV (the single file of earlier versions, or one run's); empty when there is
    /// none.
    package static func load(_ url: URL) throws -> History {
        guard FileManager.default.fileExists(atPath: url.path) else { return History() }
        let table = try CSVTable(contentsOf: url.path, required: HistoryRow.schema.names())
        return History(
            rows: table.records.map { record in
                var row = HistoryRow()
                HistoryRow.schema.read(record.fields, into: &row)
                return row
            })
    }

    package var runIDs: [String] {
        var seen: Set<String> = []
        return rows.map(\.runID).filter { seen.insert($0).inserted }
    }

    /// Adds a run's rows unless the run is there already (by run id); keeps the runs in the order they were made.
    /// Returns whether it added them.
    @discardableResult
    package mutating func add(_ run: RunData) -> Bool {
        guard let id = run.metadata?.runID, !runIDs.contains(id) else { return false }
        add(run.summary.map(HistoryRow.init))
        return true
    }

    /// Adds one run's rows (those of a run already here are left out), in the order the runs were made.
    mutating func add(_ runRows: [HistoryRow]) {
        let known = Set(runIDs)
        rows += runRows.filter { !known.contains($0.runID) }
        // A run's rows share its timestamp, so ordering by timestamp, then by place, keeps each run whole and in order.
        rows = rows.enumerated().sorted { ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset) }
            .map(\.element)
    }

    package var csv: String { CSV.encode([HistoryRow.schema.names()] + rows.map { HistoryRow.schema.fields(of: $0) }) }

    /// Every (cell, metric) with its figures in run order.
    package var series: [HistorySeries] {
        var order: [String] = []
        var byKey: [String: [HistoryRow]] = [:]
        for row in rows {
            let key = row.cell + " " + row.metric + " " + row.statistic
            if byKey[key] == nil { order.append(key) }
            byKey[key, default: []].append(row)
        }
        return order.map { HistorySeries(points: byKey[$0]!) }
    }

    /// ``record(_:resultsRoot:)`` after a run, saying what it did: a run whose history cannot be written is still a
    /// run, so that failure is said and the run kept.
    package static func recordRun(_ folder: URL, resultsRoot: String, log: (String) -> Void) {
        do {
            if let file = try record(folder, resultsRoot: resultsRoot) {
                log("added the run to the history: \(file.path)")
            }
        } catch {
            log("the run was not added to the history: \(error); add it with bench history add \(folder.path)")
        }
    }

    /// Adds a complete full run to the history beside it (`<results>/history/`); other runs are not reference runs
    /// and are left out. Returns the file when it wrote one.
    package static func record(_ folder: URL, resultsRoot: String) throws -> URL? {
        let run = try RunData.load(folder.path)
        guard run.metadata?.isCompleteFullRun == true else { return nil }
        return try HistoryFolder(results: resultsRoot).add(run)
    }
}

/// One cell's metric over the runs of a history.
package struct HistorySeries: Sendable {
    package let points: [HistoryRow]

    package var cell: String { points.first?.cell ?? "" }
    package var metric: String { points.first?.metric ?? "" }
    /// `ratio_to_reference` or `median`: a cell whose figure changed kind (a reference row added) is two series.
    package var statistic: String { points.first?.statistic ?? "" }
}

/// The calibrations of the machines a history's runs were made on (`Results/calibration/`), found once each.
package final class CalibrationBook {
    private let root: String
    private var found: [String: Calibration?] = [:]

    package init(root: String) { self.root = root }

    /// The noise bound of `rows`' cell when they were all made on one machine, scale and CPU set that has a calibration.
    package func noiseBound(_ rows: [HistoryRow]) -> Double? {
        let kinds = Set(rows.map { [$0.machine, $0.scale, $0.cpus, $0.pinned ? "pinned" : ""].joined(separator: "|") })
        guard kinds.count == 1, let kind = kinds.first, let first = rows.first, let key = first.key else { return nil }
        if found[kind] == nil {
            found[kind] = .some((try? Calibration.load(for: first.calibrationMetadata, root: root)) ?? nil)
        }
        guard let calibration = found[kind] ?? nil, let entry = calibration.cells[key], entry.onLogScale else {
            return nil
        }
        return entry.noiseBound
    }

    package func changePoints(of series: HistorySeries) -> [ChangePoint] {
        ChangePoint.find(in: series.points, noiseBound: noiseBound)
    }
}
