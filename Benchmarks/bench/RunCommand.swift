import ArgumentParser
import Foundation
import SchedulerBench
import SchedulerBenchTool
import ToolSupport

/// `bench`: side-by-side benchmarks of the scheduler backends (`Docs/Workloads.md`). Argument parsing and printing
/// only; how it is measured lives in SchedulerBench (the runtime a package links); the project's own catalog, the
/// child processes, and what is compared, reported and kept live in SchedulerBenchTool.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmark every scheduler backend on the workloads of Docs/Workloads.md; write Results/<run-id>/.",
        subcommands: [
            RunCommand.self, ListCommand.self, CompareCommand.self, ABCommand.self, CalibrateCommand.self,
            CheckCommand.self, ReportCommand.self, ConformanceCommand.self, CountAllocationsCommand.self,
            ProbeInstructionsCommand.self, CountGlobalJobsCommand.self, CatalogCommand.self, PowerCommand.self,
            ExportCommand.self,
            MachinesCommand.self, HistoryCommand.self, GlobalExecutorsCommand.self,
        ],
        defaultSubcommand: RunCommand.self
    )
}

/// What to measure and how: shared by `run`, `calibrate` and `ab`.
struct MeasureOptions: ParsableArguments {
    @Option(name: .long, help: "Backends to run (repeat or comma-separate; default: all). See `bench list`.")
    var backend: [String] = []

    @Option(name: .long, help: "Workloads to run, by id (W4) or name (ping-pong); default: all.")
    var workload: [String] = []

    @Option(name: .long, help: "Measured rounds per cell before extra rounds (default: 9, or 3 with --quick; 1…1000).")
    var rounds: Int?

    @Option(
        name: .long,
        help:
            "Shortest round in milliseconds: a round repeats its workload this long (default: 100, or 20 with --quick; 1…10000)."
    )
    var roundMs: Int?

    @Flag(
        name: .long,
        help: "Small sizes and 3 short rounds: under a minute (CI). Writes under Results/quick/ (git-ignored).")
    var quick = false

    @Option(name: .long, help: .hidden)
    var scale: String?

    @Option(
        name: .long,
        help:
            "Seconds the run may spend on extra rounds while an interval is wider than 10 % (default: 40 full, 0 quick)."
    )
    var timeBudget: Double?

    @Option(
        name: .long,
        help: "CPUs to run on, e.g. 0 or 0-1: set before any thread of a backend exists, so every thread obeys.")
    var cpus: String?

    func request(allocator: AllocatorChoice, output: String? = nil, runID: String? = nil) throws -> RunRequest {
        let scale: Scale
        if let name = self.scale {
            guard let parsed = Scale(rawValue: name) else {
                throw BenchError.setting("unknown scale '\(name)'; use full, quick or smoke")
            }
            scale = parsed
        } else {
            scale = quick ? .quick : .full
        }
        return RunRequest(
            backends: try Selection.backends(backend), workloads: try Selection.workloads(workload),
            scale: scale, rounds: rounds, roundMilliseconds: roundMs, extraSeconds: timeBudget, allocator: allocator,
            cpus: try Selection.cpus(cpus), outputDirectory: output, runID: runID)
    }
}

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run workloads on backends (default: all of them, full size, jemalloc) and write a run folder."
    )

    @OptionGroup var measure: MeasureOptions

    @Option(name: .long, help: "jemalloc (default, preloaded at run time), system (glibc malloc) or both.")
    var allocator: String = AllocatorChoice.jemalloc.rawValue

    @Option(name: .long, help: "Folder that receives the run folder (default: Results, or Results/quick unless full).")
    var output: String?

    @Option(name: .long, help: .hidden)
    var runID: String?

    func run() throws {
        guard let choice = AllocatorChoice(rawValue: allocator) else {
            throw BenchError.setting("unknown allocator '\(allocator)'; use --allocator jemalloc, system or both")
        }
        let request = try measure.request(allocator: choice, output: output, runID: runID)
        let started = Date()
        let log: (String) -> Void = { Console.error("bench: \($0)") }
        let (folder, results) =
            choice == .both
            ? try RunSession.performBoth(request, launcher: BenchLauncher(), commandLine: Console.commandLine, log: log)
            : try RunSession.perform(
                request, counter: ChildProcess.allocationCounter(BenchLauncher()), commandLine: Console.commandLine,
                progress: Console.progress, log: log)
        Console.endProgress()
        History.recordRun(folder, resultsRoot: request.resultsRoot, log: log)
        print(results.table)
        print("\nWrote \(folder.path)/summary.csv and samples.csv in \(Int(Date().timeIntervalSince(started))) s.")
    }
}

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List backends, workloads and their parameters.")

    func run() {
        var backends = TextTable(["backend", "compared to", "capabilities", "what it is"])
        for backend in Catalog.allBackends {
            backends.add([
                backend.id.rawValue, backend.wraps?.rawValue ?? "-", backend.capabilities.names.joined(separator: ","),
                backend.summary,
            ])
        }
        print(backends.render())
        print("")
        var workloads = TextTable([
            "workload", "name", "needs", "metrics", "full parameters", "quick parameters", "backends",
        ])
        for workload in Workload.all {
            workloads.add([
                workload.id.rawValue, workload.name, workload.requires.names.joined(separator: ",").ifEmpty("-"),
                workload.allMetrics.map(\.name).joined(separator: ","),
                workload.parameters(at: .full).map(\.description).joined(separator: " | "),
                workload.parameters(at: .quick).map(\.description).joined(separator: " | "),
                Catalog.allBackends.filter(workload.supports).map(\.id.rawValue).joined(separator: ","),
            ])
        }
        print(workloads.render())
        print(
            "\nRounds: \(Scale.full.rounds) (full); \(Scale.quick.rounds) (--quick); after one warm-up round."
        )
        print(
            "W9 and W14 run once. W11–W13's allocs_per_* and size_class_bytes_per_* come from a separate counting pass (jemalloc only)."
        )
    }
}

extension String {
    func ifEmpty(_ replacement: String) -> String { isEmpty ? replacement : self }
}
