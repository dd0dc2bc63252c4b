import ArgumentParser
import Foundation
import SchedulerBench
import SchedulerBenchTool
import ToolSupport

/// `bench history`: every reference run's cells over commits (Results/history/, a file per run), and where they changed.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Each cell over the reference runs (Results/history/) and its change points.",
        subcommands: [ShowHistory.self, AddToHistory.self],
        defaultSubcommand: ShowHistory.self
    )
}

struct ShowHistory: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "List the change points (steps of 5 % or more); with --cell, draw each matching series run by run."
    )

    @Option(name: .long, help: "The results folder that holds history/.")
    var results: String = "Results"

    @Option(
        name: .long,
        help: "Only cells whose name contains this text (e.g. \"W12 tasks=2000 caller=global · threadpool\").")
    var cell: String?

    @Option(name: .long, help: "Only this metric (e.g. allocs_per_task).")
    var metric: String?

    func run() throws {
        let folder = HistoryFolder(results: results)
        guard folder.exists else {
            throw BenchError.input(
                "\(folder.url.path) does not exist; a complete full run writes it, or: bench history add <run folder>")
        }
        let history = try folder.load()
        let series = history.series(cell: cell, metric: metric)
        guard !series.isEmpty else {
            throw BenchError.setting("no series in \(folder.url.path) matches --cell/--metric; drop them to see all")
        }
        let calibrations = CalibrationBook(root: results)
        if cell != nil {
            for one in series { print(history.chart(of: one, calibrations: calibrations) + "\n") }
        }
        print(history.changes(of: series, calibrations: calibrations))
    }
}

struct AddToHistory: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Append stored runs to the history (a run already in it is skipped).")

    @Argument(help: "Run folders (or summary.csv files), e.g. earlier reference runs taken out of git.")
    var runs: [String]

    @Option(name: .long, help: "The results folder that holds history/.")
    var results: String = "Results"

    func validate() throws {
        guard !runs.isEmpty else { throw ValidationError("name at least one run folder to add") }
        for run in runs { _ = try RunStore.summaryFile(run) }
    }

    func run() throws {
        let folder = HistoryFolder(results: results)
        for run in runs {
            let data = try RunData.load(run)
            let added = try folder.add(data) != nil
            Console.error("bench: \(added ? "added" : "already there:") \(data.metadata?.runID ?? run)")
        }
        let history = try folder.load()
        print("\(folder.url.path): \(history.runIDs.count) runs, \(history.rows.count) rows.")
    }
}
