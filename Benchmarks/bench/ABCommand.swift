import ArgumentParser
import Foundation
import SchedulerBench
import SchedulerBenchTool
import ToolSupport

struct ABCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ab",
        abstract: "Did my change make it faster? Alternate the baseline's and the working tree's bench, cell by cell.",
        discussion: """
            Builds the baseline revision in a git worktree (cached under .build-ab/), then runs its `bench run` \
            and this build's in pairs of processes (by default a duet: both at once, pinned to one CPU, judged on \
            CPU time) and judges each cell on the pairs' ratios B/A. \
            Narrow it with --backend and --workload: every pair runs the whole selection twice.
            """
    )

    @Option(name: .long, help: "The git revision to compare with (A), e.g. HEAD, main or a commit.")
    var baseline: String

    @Option(name: .long, help: "Backends to compare (repeat or comma-separate; default: all).")
    var backend: [String] = []

    @Option(name: .long, help: "Workloads to compare, by id (W1) or name, or all (default: W1,W2,W3,W4).")
    var workload: [String] = []

    @OptionGroup var pairsOptions: PairsOptions

    @Option(
        name: .long,
        help: ArgumentHelp(
            "duet (default): A and B at once on one CPU, judged on CPU time; sequential: A then B with the whole "
                + "machine, every metric judged."))
    var pairing: String = Pairing.duet.rawValue

    @Option(name: .long, help: "CPUs for both builds' processes, e.g. 0 or 0-1 (a duet takes turns between them).")
    var cpus: String?

    @Flag(
        inversion: .prefixedNo,
        help: "Also count instructions per task of both builds under callgrind, after the pairs (exact; default: on).")
    var instructions = true

    @Option(name: .long, help: "Folder that receives the comparison's folder.")
    var output: String = "Results/ab"

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Exit 1 when a cell or an exact count reads slower (slower), or also when a cell stays undecided "
                + "(slower-or-undecided): a gate for CI. Default: exit 0 whatever the verdicts."))
    var failOn: String?

    func run() throws {
        let gate = try Selection.gate(failOn)
        var request = ABRequest(baseline: baseline)
        request.comparison.backends = try Selection.backends(backend)
        request.comparison.workloads =
            workload == ["all"] ? nil : try Selection.workloads(workload) ?? ABRequest.defaultWorkloads
        pairsOptions.apply(to: &request.comparison)
        request.comparison.cpus = try Selection.cpus(cpus)
        request.comparison.pairing = try Selection.pairing(pairing)
        request.comparison.output = output
        request.countsInstructions = instructions
        let outcome = try ABSession.perform(request, launcher: BenchLauncher(), commandLine: Console.commandLine) {
            Console.error("bench: \($0)")
        }
        print(outcome.analysis.render())
        if let instructions = outcome.instructions { print("\n" + instructions.render()) }
        print(
            "\nWrote \(outcome.folder.path)/AB.md, ab.csv\(outcome.instructions == nil ? "" : ", instructions.csv") "
                + "and pairs.csv.")
        guard let gate else { return }
        let trips = gate.trips(outcome.analysis, instructions: outcome.instructions)
        guard trips.isEmpty else {
            print("\n--fail-on \(gate.rawValue): \(trips.count) cell(s) tripped the gate:")
            for trip in trips { print("  \(trip)") }
            throw ExitCode(1)
        }
        print("\n--fail-on \(gate.rawValue): no cell tripped the gate.")
    }
}

struct CalibrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract:
            "Measure this machine's run-to-run noise: run this build several times and store each figure's spread.",
        discussion: """
            Use the same selection, scale and --cpus as the runs you will compare: a calibration holds only for \
            runs of its kind. Writes Results/calibration/<scale>-cpus<list>-<machine>.csv, which bench compare \
            and bench report read.
            """
    )

    @OptionGroup var measure: MeasureOptions

    @Option(name: .long, help: "How many runs (3…20; default 5).")
    var runs: Int = 5

    @Option(name: .long, help: "jemalloc (default) or system.")
    var allocator: String = AllocatorChoice.jemalloc.rawValue

    @Option(name: .long, help: "The results folder that receives calibration/.")
    var results: String = "Results"

    @Option(
        name: .long,
        help: "Rewrite this calibration file from the figures it keeps, with this build's method (no runs).")
    var recompute: String?

    func run() throws {
        guard let choice = AllocatorChoice(rawValue: allocator), choice != .both else {
            throw BenchError.setting("unknown allocator '\(allocator)'; calibrate with --allocator jemalloc or system")
        }
        let file: URL
        let calibration: Calibration
        if let recompute {
            (file, calibration) = (URL(fileURLWithPath: recompute), try CalibrateSession.recompute(recompute))
        } else {
            (file, calibration) = try CalibrateSession.perform(
                try measure.request(allocator: choice), runs: runs,
                resultsRoot: results, launcher: BenchLauncher(),
                commandLine: Console.commandLine
            ) { Console.error("bench: \($0)") }
        }
        let bounds = calibration.cells.values.filter(\.onLogScale).map(\.noiseBound).sorted()
        let median = bounds.isEmpty ? 0 : bounds[bounds.count / 2]
        print(
            "Calibrated \(calibration.cells.count) cells and \(calibration.goals.count) goals from \(calibration.runs) runs; "
                + "median noise bound ±\(Format.short(median * 100)) %. Wrote \(file.path).")
    }
}

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract:
            "Compare instructions and exact allocations per task with the committed thresholds; fail on a regression."
    )

    @Option(name: .long, help: "Backends to check (default: all).")
    var backend: [String] = []

    @Option(name: .long, help: "The folder of the thresholds files (one per toolchain and architecture).")
    var thresholds: String = "Benchmarks/thresholds"

    @Flag(
        name: .long,
        help: "Rewrite the limits of the measured backends from this measurement, keeping the rest (review the diff).")
    var update = false

    func run() throws {
        let outcome = try CheckSession.perform(
            backends: try Selection.backends(backend), thresholdsFolder: thresholds,
            update: update, launcher: BenchLauncher()
        ) { Console.error("bench: \($0)") }
        var table = TextTable(["backend", "workload", "parameters", "metric", "measured", "limit", "verdict"])
        for line in outcome.lines {
            table.add([
                line.cell.backend.rawValue, line.cell.workload?.rawValue ?? "-", line.cell.parameters.description,
                line.cell.metric.name, Format.short(line.measured), line.limit.map(Format.short) ?? "-",
                line.verdict.rawValue,
            ])
        }
        print(table.render())
        for backend in outcome.notCounted { print("\(backend.backend): instructions not counted, \(backend.reason)") }
        if outcome.updated {
            print("\nWrote \(outcome.file.path): review the diff (git diff) and commit it.")
            return
        }
        let regressions = outcome.regressions
        guard regressions.isEmpty else {
            print("\n\(regressions.count) regression(s) against \(outcome.file.path):")
            for line in regressions {
                print("  \(line.cell): \(Format.short(line.measured)) > limit \(Format.short(line.limit ?? 0))")
            }
            throw ExitCode(1)
        }
        print("\nNo regression against \(outcome.file.path) (\(outcome.lines.count) costs).")
    }
}

/// How many pairs of processes, how large, and the smallest change of interest: `bench ab`'s and `bench
/// global-executors`' settings, typed once.
struct PairsOptions: ParsableArguments {
    @Option(name: .long, help: "Measured rounds per cell in each process (default: the scale's).")
    var rounds: Int?

    @Flag(name: .long, help: "Full-size workloads in each process (default: --quick sizes, so that more pairs fit).")
    var full = false

    @Option(name: .long, help: "Seconds the pairs may take after the minimum number (default: 300).")
    var budget: Double = 300

    @Option(name: .long, help: "At least this many pairs (default: 12, the fewest the interval has bounds with).")
    var pairs: Int = ABAnalysis.pairsForABound

    @Option(
        name: .long,
        help: "The smallest change of interest, a fraction: never claim a smaller one (default: 0.02, i.e. 2 %).")
    var minEffect: Double = 0.02

    /// Sets these options on a comparison.
    func apply(to comparison: inout PairedComparison) {
        comparison.rounds = rounds
        comparison.scale = full ? .full : .quick
        comparison.budgetSeconds = budget
        comparison.minimumPairs = pairs
        comparison.minimumEffect = minEffect
    }
}
