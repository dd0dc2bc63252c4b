import ArgumentParser
import Foundation
import SchedulerBench

/// `bench`: side-by-side benchmarks of the scheduler backends (BRIEF §5). Argument parsing and printing only;
/// everything measured or computed lives in SchedulerBench.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmark every scheduler backend on the workloads of BRIEF §5; write Results/<run-id>/.",
        subcommands: [RunCommand.self, ListCommand.self, CompareCommand.self, ReportCommand.self, ConformanceCommand.self,
                      CountAllocationsCommand.self],
        defaultSubcommand: RunCommand.self
    )
}

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run workloads on backends (default: all of them, full size, jemalloc) and write a run folder."
    )

    @Option(name: .long, help: "Backends to run (repeat or comma-separate; default: all). See `bench list`.")
    var backend: [String] = []

    @Option(name: .long, help: "Workloads to run, by id (W4) or name (ping-pong); default: all.")
    var workload: [String] = []

    @Option(name: .long, help: "Measured rounds per backend (default: 9, or 3 with --quick).")
    var rounds: Int?

    @Flag(name: .long, help: "Small sizes and 3 rounds: under a minute (CI). Writes under Results/quick/ (git-ignored).")
    var quick = false

    @Option(name: .long, help: "jemalloc (default, preloaded at run time), system (glibc malloc) or both.")
    var allocator: String = "jemalloc"

    @Option(name: .long, help: "Folder that receives the run folder (default: Results, or Results/quick with --quick).")
    var output: String?

    @Option(name: .long, help: .hidden)
    var runID: String?

    func run() throws {
        guard let choice = AllocatorChoice(rawValue: allocator) else {
            throw BenchError("unknown allocator '\(allocator)'; use --allocator jemalloc, system or both")
        }
        let request = RunRequest(backendNames: backend, workloadNames: workload, rounds: rounds, scale: quick ? .quick : .full,
                                 allocator: choice, outputDirectory: output, runID: runID)
        // Resolve names before any re-execution or child process, so a typo fails at once.
        _ = try BenchRun.backends(backend)
        _ = try BenchRun.workloads(workload)
        let started = Date()
        let log: (String) -> Void = { Console.error("bench: \($0)") }
        let (folder, results) = choice == .both
            ? try BenchRun.performBoth(request, arguments: Array(CommandLine.arguments.dropFirst()),
                                         commandLine: Console.commandLine, log: log)
            : try BenchRun.perform(request, commandLine: Console.commandLine, progress: Console.progress, log: log)
        Console.endProgress()
        print(SummaryTable.render(results.summary))
        print("\nWrote \(folder.path)/summary.csv and samples.csv in \(Int(Date().timeIntervalSince(started))) s.")
    }
}

/// The allocation pass's child process (started by `bench run`, with thread caches off): prints the counts as CSV.
struct CountAllocationsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: AllocationPass.subcommand, shouldDisplay: false)

    @Option(name: .long) var backend: [String] = []
    @Option(name: .long) var workload: [String] = []
    @Option(name: .long) var scale: String = Scale.full.rawValue

    func run() throws {
        guard let scale = Scale(rawValue: scale) else { throw BenchError("unknown scale '\(scale)'; use full, quick or smoke") }
        print(try AllocationPass.countInChild(backendNames: backend, workloadNames: workload, scale: scale) {
            Console.error("bench: \($0)")
        }, terminator: "")
    }
}

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List backends, workloads and their parameters.")

    func run() {
        var backends = TextTable(["backend", "compared to", "capabilities", "what it is"])
        for backend in Backend.all {
            backends.add([backend.name, backend.wraps ?? "-", backend.capabilities.names.joined(separator: ","), backend.summary])
        }
        print(backends.render())
        print("")
        var workloads = TextTable(["workload", "name", "needs", "metrics", "full parameters", "quick parameters", "backends"])
        for workload in Workload.all {
            workloads.add([
                workload.id, workload.name, workload.requires.names.joined(separator: ",").ifEmpty("-"),
                (workload.metrics + (workload.allocationProbe?.metrics ?? [])).map(\.name).joined(separator: ","),
                workload.parameters(at: .full).map(\.description).joined(separator: " | "),
                workload.parameters(at: .quick).map(\.description).joined(separator: " | "),
                Backend.all.filter(workload.supports).map(\.name).joined(separator: ","),
            ])
        }
        print(workloads.render())
        print("\nRounds: \(Scale.full.rounds) (full), \(Scale.quick.rounds) (--quick), after one warm-up round; W9 runs once (exact counts).")
        print("W11–W13's allocs_per_* and size_class_bytes_per_* come from a separate counting pass (jemalloc only).")
    }
}

struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two summary.csv files (B against A); mark only differences larger than the noise."
    )

    @Argument(help: "The baseline summary.csv (A).") var before: String
    @Argument(help: "The summary.csv to judge (B).") var after: String
    @Option(name: .long, help: "Also write the comparison, with the two runs' ids, commits and this command, to this Markdown file.")
    var output: String?

    func run() throws {
        let (beforeRows, afterRows) = (try SummaryRow.read(before), try SummaryRow.read(after))
        let comparison = Comparison(before: beforeRows, after: afterRows)
        guard !comparison.lines.isEmpty else {
            throw BenchError("\(before) and \(after) have no cell in common (same backend, workload, parameters, metric, allocator)")
        }
        print(comparison.render())
        guard let output else { return }
        let command = "bench compare \(before) \(after) --output \(output)"
        let text = comparison.markdown(command: command, before: (before, beforeRows), after: (after, afterRows))
        try CSV.writeAtomically(text, to: URL(fileURLWithPath: output))
    }
}

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Regenerate Results/REPORT.md and its charts from a run folder's CSVs (default: the newest full run)."
    )

    @Option(name: .customLong("run"), help: "The run folder to report on (default: the newest under Results/ with a summary.csv).")
    var runFolder: String?

    @Option(name: .long, help: "The results folder.")
    var results: String = "Results"

    @Flag(name: .long, help: "Skip the charts (no Python needed).")
    var noCharts = false

    func run() throws {
        let written = try Report.generate(resultsDirectory: results, runFolder: runFolder, charts: !noCharts) { Console.error("bench: \($0)") }
        print("Wrote \(written.joined(separator: ", "))")
    }
}

extension String {
    func ifEmpty(_ replacement: String) -> String { isEmpty ? replacement : self }
}

Console.main(Bench.self)
