import ArgumentParser
import Foundation
import SchedulerBench
import SchedulerBenchTool
import ToolSupport

/// `bench machines`: runs of several machines side by side, as ratios to each run's own reference rows.
struct MachinesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "machines",
        abstract: "Runs of several machines side by side: each backend's ratio to its run's reference, per machine."
    )

    @Argument(help: "Two or more run folders (e.g. this machine's reference run and a portable bench's run elsewhere).")
    var runs: [String]

    @Option(name: .shortAndLong, help: "The Markdown file to write (default: standard output).")
    var output: String?

    func validate() throws {
        guard runs.count >= 2 else { throw ValidationError("name at least two run folders to put side by side") }
        for run in runs { _ = try RunStore.summaryFile(run) }
    }

    func run() throws {
        let page = MachinesPage(runs: try runs.map(RunData.load))
        let command = (["bench"] + CommandLine.arguments.dropFirst()).joined(separator: " ")
        let text = page.markdown(command: command)
        try Console.emit(text, to: output)
    }
}
