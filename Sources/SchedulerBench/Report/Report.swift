import Foundation

/// `bench report`: regenerates `Results/REPORT.md` (and the charts, through `scripts/plot_results.sh`) from a run
/// folder's `summary.csv`. Everything in the report comes from the CSV; nothing is typed in by hand.
public enum Report {
    /// Writes the report; returns the paths written.
    public static func generate(resultsDirectory: String, runFolder: String?, charts: Bool,
                                log: (String) -> Void) throws -> [String] {
        let folder = try runFolder ?? newestRun(in: resultsDirectory)
        let summaryPath = (folder as NSString).appendingPathComponent("summary.csv")
        let rows = try SummaryRow.read(summaryPath)
        guard let first = rows.first else { throw BenchError("\(summaryPath) has no rows; run bench first") }
        var written: [String] = []
        var chartFiles: [String] = []
        if charts {
            let chartFolder = (folder as NSString).appendingPathComponent("charts")
            chartFiles = try drawCharts(summary: summaryPath, into: chartFolder, log: log)
            written += chartFiles
        }
        let reportPath = (resultsDirectory as NSString).appendingPathComponent("REPORT.md")
        let relativeFolder = relative(folder, to: resultsDirectory)
        // The conformance matrix beside it, when `bench conformance` wrote one there (for the NIO section).
        let conformancePath = (resultsDirectory as NSString).appendingPathComponent("conformance.csv")
        let conformance = FileManager.default.fileExists(atPath: conformancePath) ? try ConformanceRow.read(conformancePath) : []
        let text = markdown(rows: rows, metadata: first.metadata, folder: relativeFolder,
                            charts: chartFiles.map { relative($0, to: resultsDirectory) }, conformance: conformance)
        try CSV.writeAtomically(text, to: URL(fileURLWithPath: reportPath))
        written.append(reportPath)
        return written
    }

    static func relative(_ path: String, to base: String) -> String {
        let standardBase = URL(fileURLWithPath: base).standardizedFileURL.path + "/"
        let standardPath = URL(fileURLWithPath: path).standardizedFileURL.path
        return standardPath.hasPrefix(standardBase) ? String(standardPath.dropFirst(standardBase.count)) : standardPath
    }

    /// The newest run folder (run ids start with a UTC timestamp) directly under `directory`.
    static func newestRun(in directory: String) throws -> String {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        let runs = names.filter { name in
            !name.hasPrefix(".") && FileManager.default.fileExists(atPath: "\(directory)/\(name)/summary.csv")
        }.sorted()
        guard let newest = runs.last else {
            throw BenchError("no run folder with a summary.csv under \(directory)/; run `bench` first or pass --run <folder>")
        }
        return "\(directory)/\(newest)"
    }

    static func drawCharts(summary: String, into folder: String, log: (String) -> Void) throws -> [String] {
        let script = "scripts/plot_results.sh"
        guard FileManager.default.isExecutableFile(atPath: script) else {
            throw BenchError("\(script) not found; run bench report from the repository root, or pass --no-charts")
        }
        log("drawing charts with \(script) (creates .venv with matplotlib on first use)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: script)
        process.arguments = [summary, folder]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError("\(script) failed (exit \(process.terminationStatus)); see its output above, or pass --no-charts")
        }
        return ["throughput.png", "latency.png", "allocations.png", "actors.png", "idle_cpu.png"].map { "\(folder)/\($0)" }
            .filter { FileManager.default.fileExists(atPath: $0) }
    }
}
