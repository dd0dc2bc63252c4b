import ArgumentParser
import Foundation
import SchedulerBench
import SchedulerBenchTool
import ToolSupport

struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract:
            "Compare two stored runs (B against A); mark only differences above this machine's calibrated noise bound."
    )

    @Argument(help: "The baseline run: a run folder or its summary.csv (A).") var before: String
    @Argument(help: "The run to judge: a run folder or its summary.csv (B).") var after: String
    @Option(name: .long, help: "The results folder that holds calibration/ (bench calibrate).")
    var results: String = "Results"
    @Option(
        name: .long,
        help: "Also write the comparison, with both runs' ids, commits and this command, to this Markdown file.")
    var output: String?

    func run() throws {
        let (beforeRows, afterRows) = (try RunData.load(before).summary, try RunData.load(after).summary)
        let calibration = try afterRows.first.flatMap { try Calibration.load(for: $0.metadata, root: results) }
        let comparison = Comparison(before: beforeRows, after: afterRows, calibration: calibration)
        guard !comparison.lines.isEmpty else {
            throw BenchError.input(
                "\(before) and \(after) have no cell in common (same backend, workload, parameters, metric, allocator)")
        }
        print(comparison.render())
        guard let output else { return }
        let command = "bench compare \(before) \(after) --output \(output)"
        let text = comparison.markdown(command: command, before: (before, beforeRows), after: (after, afterRows))
        try AtomicFile.write(text, to: URL(fileURLWithPath: output))
    }
}

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract:
            "Regenerate Results/REPORT.md and its charts from a run folder (default: the newest complete full run)."
    )

    @Option(
        name: .customLong("run"),
        help: "The run folder to report on (default: the newest complete full run under --results).")
    var runFolder: String?

    @Option(name: .long, help: "The results folder.")
    var results: String = "Results"

    @Flag(name: .long, help: "Skip the charts (no Python needed).")
    var noCharts = false

    func run() throws {
        let choice = try Report.choose(runFolder: runFolder, resultsDirectory: results)
        Console.error("bench: reporting on \(choice.folder): \(choice.reason)")
        let written = try Report.generate(choice, resultsDirectory: results, charts: !noCharts) {
            Console.error("bench: \($0)")
        }
        print("Wrote \(written.joined(separator: ", "))")
    }
}

/// `bench catalog`: rewrites `Docs/Catalog.md` from the catalog's entries.
struct CatalogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Rewrite Docs/Catalog.md from the catalog: every scheduler, reference and floor, one line each."
    )

    @Option(name: .long, help: "The repository root the page is written under.")
    var root: String = "."

    func run() throws {
        print("Wrote \(try CatalogPage.write(root: root))")
    }
}
