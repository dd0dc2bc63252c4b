import Foundation
import ToolSupport

/// `Results/history.csv`: one row per cell per reference run, in the order the runs were made. A complete full run
/// appends itself when it is written; `bench history add` appends stored runs (older ones, from git).
public struct History: Sendable {
    public var rows: [HistoryRow]

    public init(rows: [HistoryRow] = []) { self.rows = rows }

    /// The file under a results folder.
    public static func file(in results: String) -> URL {
        URL(fileURLWithPath: results).appendingPathComponent("history.csv")
    }

    /// The history at `url`; empty when there is none yet.
    public static func load(_ url: URL) throws -> History {
        guard FileManager.default.fileExists(atPath: url.path) else { return History() }
        let table = try CSVTable(contentsOf: url.path, required: HistoryRow.schema.names())
        return History(
            rows: table.records.map { record in
                var row = HistoryRow()
                HistoryRow.schema.read(record.fields, into: &row)
                return row
            })
    }

    public var runIDs: [String] {
        var seen: Set<String> = []
        return rows.map(\.runID).filter { seen.insert($0).inserted }
    }

    /// Adds a run's rows unless the run is there already (by run id); keeps the runs in the order they were made.
    /// Returns whether it added them.
    @discardableResult
    public mutating func add(_ run: RunData) -> Bool {
        guard let id = run.metadata?.runID, !runIDs.contains(id) else { return false }
        rows += run.summary.map(HistoryRow.init)
        // A run's rows share its timestamp, so ordering by timestamp, then by place, keeps each run whole and in order.
        rows = rows.enumerated().sorted { ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset) }
            .map(\.element)
        return true
    }

    public var csv: String { CSV.encode([HistoryRow.schema.names()] + rows.map { HistoryRow.schema.fields(of: $0) }) }

    public func write(_ url: URL) throws { try AtomicFile.write(csv, to: url) }

    /// Every (cell, metric) with its figures in run order.
    public var series: [HistorySeries] {
        var order: [String] = []
        var byKey: [String: [HistoryRow]] = [:]
        for row in rows {
            let key = row.cell + " " + row.metric + " " + row.statistic
            if byKey[key] == nil { order.append(key) }
            byKey[key, default: []].append(row)
        }
        return order.map { HistorySeries(points: byKey[$0]!) }
    }

    /// Appends a complete full run to the history beside it (`<results>/history.csv`); other runs are not reference
    /// runs and are left out. Returns the file when it wrote it.
    public static func record(_ folder: URL, resultsRoot: String) throws -> URL? {
        let run = try RunData.load(folder.path)
        guard run.metadata?.isCompleteFullRun == true else { return nil }
        let url = file(in: resultsRoot)
        var history = try load(url)
        guard history.add(run) else { return nil }
        try history.write(url)
        return url
    }
}

/// One cell's metric over the runs of a history.
public struct HistorySeries: Sendable {
    public let points: [HistoryRow]

    public var cell: String { points.first?.cell ?? "" }
    public var metric: String { points.first?.metric ?? "" }
    /// `ratio_to_reference` or `median`: a cell whose figure changed kind (a reference row added) is two series.
    public var statistic: String { points.first?.statistic ?? "" }
}

/// The calibrations of the machines a history's runs were made on (`Results/calibration/`), found once each.
public final class CalibrationBook {
    private let root: String
    private var found: [String: Calibration?] = [:]

    public init(root: String) { self.root = root }

    /// The floor of `rows`' cell when they were all made on one machine, scale and CPU set that has a calibration.
    public func floor(_ rows: [HistoryRow]) -> Double? {
        let kinds = Set(rows.map { [$0.machine, $0.scale, $0.cpus, $0.pinned ? "pinned" : ""].joined(separator: "|") })
        guard kinds.count == 1, let kind = kinds.first, let first = rows.first, let key = first.key else { return nil }
        if found[kind] == nil {
            found[kind] = .some((try? Calibration.load(for: first.calibrationMetadata, root: root)) ?? nil)
        }
        guard let calibration = found[kind] ?? nil, let entry = calibration.cells[key], entry.onLogScale else {
            return nil
        }
        return entry.compareFloor
    }

    public func changePoints(of series: HistorySeries) -> [ChangePoint] {
        ChangePoint.find(in: series.points, floor: floor)
    }
}
