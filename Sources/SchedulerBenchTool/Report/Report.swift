import Foundation
import SchedulerBench
import ToolSupport

/// `bench report`: regenerates `Results/REPORT.md` (the answer on one page), `Results/FIGURES.md` (every figure) and
/// the charts (through `scripts/plot_results.sh`) from a run folder. Everything in the report comes from the run's CSV files; nothing is typed in by hand.
package enum Report {
    /// The run a report is made from, and why that one.
    package struct Choice: Sendable {
        package let folder: String
        package let reason: String
    }

    /// The named run, or the newest complete full run (every workload on every backend, full scale) under `results`.
    package static func choose(runFolder: String?, resultsDirectory: String) throws -> Choice {
        if let runFolder {
            _ = try RunStore.summaryFile(runFolder)
            return Choice(folder: runFolder, reason: "the run named with --run")
        }
        let runs = RunStore(root: resultsDirectory).runs()
        let full = runs.last { folder in
            let rows = try? CSVTable(contentsOf: folder.appendingPathComponent("summary.csv").path, required: [])
            return rows?.records.first.map { RunMetadata(fields: $0.fields).isCompleteFullRun } ?? false
        }
        guard let full else {
            throw BenchError.input(
                "no complete full run (every workload, every backend, full scale) under \(resultsDirectory)/; "
                    + "run scripts/bench.sh first, or name one with --run <folder>")
        }
        let skipped = runs.count - 1 - (runs.firstIndex(of: full) ?? runs.count - 1)
        return Choice(
            folder: full.path,
            reason: "the newest complete full run under \(resultsDirectory)/"
                + (skipped > 0 ? " (\(skipped) newer partial or quick run\(skipped == 1 ? "" : "s") passed over)" : ""))
    }

    /// Writes the report for `choice`; returns the paths written.
    package static func generate(
        _ choice: Choice, resultsDirectory: String, charts: Bool,
        log: (String) -> Void
    ) throws -> [String] {
        let run = try RunData.load(choice.folder)
        guard let metadata = run.metadata else {
            throw BenchError.input("\(choice.folder) has no rows; run bench first")
        }
        var written: [String] = []
        var chartFiles: [String] = []
        if charts, let allocator = run.allocators.first {
            let folder = (choice.folder as NSString).appendingPathComponent("charts")
            chartFiles = try drawCharts(
                Charts.points(RunView(run: run, allocator: allocator)), allocator: allocator,
                into: folder, log: log)
            written += chartFiles
        }
        // The conformance matrix beside it, when `bench conformance` wrote one there (for the peers section).
        let conformancePath = (resultsDirectory as NSString).appendingPathComponent("conformance.csv")
        let conformance =
            FileManager.default.fileExists(atPath: conformancePath) ? try ConformanceRow.read(conformancePath) : []
        let calibration = try Calibration.load(for: metadata, root: resultsDirectory)
        log(
            calibration.map { "goals widened by the calibration of \($0.runs) runs of \($0.commit)" }
                ?? "no calibration of this machine for \(metadata.scale) runs on CPUs \(metadata.cpus): goals judged on the run alone"
        )
        let folder = relative(choice.folder, to: resultsDirectory)
        let files = [
            "REPORT.md": page(
                run: run, folder: folder, charts: chartFiles.map { relative($0, to: resultsDirectory) },
                conformance: conformance, calibration: calibration,
                globalExecutors: try GlobalExecutorContestSection.newest(in: resultsDirectory)),
            "FIGURES.md": figuresMarkdown(
                run: run, folder: folder, conformance: conformance, calibration: calibration),
        ]
        for (name, text) in files.sorted(by: { $0.key < $1.key }) {
            let path = (resultsDirectory as NSString).appendingPathComponent(name)
            try AtomicFile.write(text, to: URL(fileURLWithPath: path))
            written.append(path)
        }
        return written
    }

    static func relative(_ path: String, to base: String) -> String {
        let standardBase = URL(fileURLWithPath: base).standardizedFileURL.path + "/"
        let standardPath = URL(fileURLWithPath: path).standardizedFileURL.path
        return standardPath.hasPrefix(standardBase) ? String(standardPath.dropFirst(standardBase.count)) : standardPath
    }

    /// Writes the charts' data to `<folder>/charts.csv` and has `scripts/plot_results.sh` draw it; returns the
    /// files it drew, in the report's order.
    static func drawCharts(
        _ points: [Charts.Point], allocator: AllocatorChoice, into folder: String,
        log: (String) -> Void
    ) throws -> [String] {
        let script = "scripts/plot_results.sh"
        guard FileManager.default.isExecutableFile(atPath: script) else {
            throw BenchError.machine(
                "\(script) not found; run bench report from the repository root, or pass --no-charts")
        }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let data = (folder as NSString).appendingPathComponent("charts.csv")
        try AtomicFile.write(Charts.csv(points, allocator: allocator), to: URL(fileURLWithPath: data))
        log("drawing charts with \(script) (creates .venv with matplotlib on first use)")
        do {
            try ChildProcess.run(script, [data, folder], captureError: false)
        } catch {
            throw BenchError.failed("\(script) failed (\(error)); see its output above, or pass --no-charts")
        }
        return Charts.Chart.allCases.map { "\(folder)/\($0.rawValue).png" }.filter {
            FileManager.default.fileExists(atPath: $0)
        }
    }
}
