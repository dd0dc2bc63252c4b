import ArgumentParser
import Foundation
import SchedulerBench
import SchedulerBenchTool
import ToolSupport

extension ExportFormat: ExpressibleByArgument {}

/// `bench export`: a stored run in a format another tool ingests (Docs/Results.md, "Exports").
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a stored run as Bencher's BMF, github-action-benchmark's or JMH's JSON."
    )

    @Option(name: .long, help: "bmf, github-action-benchmark (lower is better), github-action-benchmark-bigger, jmh.")
    var format: ExportFormat

    @Argument(help: "The run folder (default: the newest complete full run under --results).")
    var runFolder: String?

    @Option(name: .long, help: "The results folder.")
    var results: String = "Results"

    @Option(name: .shortAndLong, help: "The file to write (default: standard output).")
    var output: String?

    func validate() throws {
        if let output {
            let folder = URL(fileURLWithPath: output).deletingLastPathComponent().path
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
                throw ValidationError("--output \(output): the folder \(folder) does not exist; create it first")
            }
        }
    }

    func run() throws {
        let choice = try Report.choose(runFolder: runFolder, resultsDirectory: results)
        Console.error("bench: exporting \(choice.folder) (\(choice.reason)) as \(format.rawValue)")
        let (json, leftOut) = try format.render(try RunData.load(choice.folder))
        if leftOut > 0 {
            Console.error(
                "bench: \(leftOut) rows of the other direction left out (github-action-benchmark takes one per file)")
        }
        try Console.emit(json, to: output)
    }
}
