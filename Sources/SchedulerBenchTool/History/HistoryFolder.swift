import Foundation
import SchedulerBench
import ToolSupport

/// Where the history is kept: `<results>/history/`, one file per reference run (`<run-id>.csv.gz`, the rows of
/// ``HistoryRow`` compressed with gzip).
///
/// Why a file per run, compressed: a run's rows never change once written, so git stores each file once, and the
/// history grows by one small file per run (about 12 kB for a full run of 1 172 cells) instead of rewriting one file
/// that grows without end (`history.csv` had reached 3 MB over 17 runs). `gzip` is an essential package of every
/// Debian and Ubuntu (run through `Command`, as git is), so reading and writing need nothing that a machine with only Swift lacks; `gzip -dc FILE` shows
/// one by hand. A results folder that still has the single `history.csv` of earlier versions is read as well, and
/// split into per-run files the first time a run is added.
package struct HistoryFolder: Sendable {
    package let url: URL
    /// The single file of earlier versions (`<results>/history.csv`).
    let legacy: URL

    package init(results: String) {
        let root = URL(fileURLWithPath: results)
        url = root.appendingPathComponent("history")
        legacy = root.appendingPathComponent("history.csv")
    }

    /// Whether there is any history here.
    package var exists: Bool { !runFiles().isEmpty || FileManager.default.fileExists(atPath: legacy.path) }

    /// Every run of the history, in the order the runs were made.
    package func load() throws -> History {
        var history = FileManager.default.fileExists(atPath: legacy.path) ? try History.load(legacy) : History()
        for file in runFiles() {
            let text = try Command.output("gzip", ["-dc", file.path])
            let table = try CSVTable(text: text, source: file.path, required: HistoryRow.schema.names())
            let rows = table.records.map { record in
                var row = HistoryRow()
                HistoryRow.schema.read(record.fields, into: &row)
                return row
            }
            history.add(rows)
        }
        return history
    }

    /// Adds a run (unless it is there already, by run id) as a file of its own; returns the file when it wrote one.
    @discardableResult
    package func add(_ run: RunData) throws -> URL? {
        guard let id = run.metadata?.runID else { return nil }
        try migrateLegacy()
        guard !(try load().runIDs.contains(id)) else { return nil }
        return try write(run.summary.map(HistoryRow.init), of: id)
    }

    /// The `<run-id>.csv.gz` files, by name.
    func runFiles() -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.filter { $0.hasSuffix(".csv.gz") && !$0.hasPrefix(".") }.sorted().map(url.appendingPathComponent)
    }

    /// Splits the single file of earlier versions into a file per run, then removes it.
    func migrateLegacy() throws {
        guard FileManager.default.fileExists(atPath: legacy.path) else { return }
        let history = try History.load(legacy)
        for id in history.runIDs where !FileManager.default.fileExists(atPath: file(of: id).path) {
            try write(history.rows.filter { $0.runID == id }, of: id)
        }
        try FileManager.default.removeItem(at: legacy)
    }

    func file(of runID: String) -> URL { url.appendingPathComponent(runID + ".csv.gz") }

    /// Writes one run's rows whole or not at all: compressed under a hidden name, then renamed into place.
    @discardableResult
    func write(_ rows: [HistoryRow], of runID: String) throws -> URL {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let incoming = url.appendingPathComponent(".incoming-\(UUID().uuidString).csv")
        defer {
            try? FileManager.default.removeItem(at: incoming)
            try? FileManager.default.removeItem(at: incoming.appendingPathExtension("gz"))
        }
        try AtomicFile.write(History(rows: rows).csv, to: incoming)
        // -n: no name or time stamp in the header, so the same rows always make the same bytes.
        _ = try Command.output("gzip", ["-n", "-9", "-f", incoming.path])
        let target = file(of: runID)
        try FileManager.default.moveItem(at: incoming.appendingPathExtension("gz"), to: target)
        return target
    }
}
