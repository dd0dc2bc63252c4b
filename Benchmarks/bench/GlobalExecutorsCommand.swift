import ArgumentParser
import SchedulerBench
import SchedulerBenchTool

/// `bench global-executors`: the pool as Swift's global executor against Dispatch's and SwiftNIO's, in pairs of
/// processes (`GlobalExecutorContest`).
struct GlobalExecutorsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "global-executors",
        abstract:
            "Pair processes on different global executors (BENCH_GLOBAL_EXECUTOR) on W11–W13, W19, W24, W25; write Results/global-executors/<id>/.",
        discussion: """
            Each challenger is paired with the champion as bench ab pairs two builds: the same settings, checks and \
            verdicts, with both sides this bench, one on each global executor, one after the other with the whole \
            machine. Before the pairs it counts, in a process on each, what every row sends through the global \
            executor (jobs.csv), and it marks a row out of reach where nothing on it is left for a global executor \
            to decide (Docs/Workloads.md, "Out of reach").
            """
    )

    @Option(
        name: .long,
        help:
            "The global executor every challenger is paired with (B; default: pool-factory where the runtime has it, else pool)."
    )
    var champion: String?

    @Option(
        name: .long, parsing: .upToNextOption, help: "The global executors to pair it with (A; default: the others).")
    var challengers: [String] = []

    @Option(name: .long, help: "Workloads, by id (W11) or name (default: W11 W12 W13 W19 W24 W25).")
    var workload: [String] = []

    @OptionGroup var pairsOptions: PairsOptions

    @Option(name: .long, help: "Folder that receives the contest's folder.")
    var output = "Results/global-executors"

    func run() throws {
        var request = GlobalExecutorContestRequest()
        if let champion { request.champion = try Self.choice(champion) }
        if !challengers.isEmpty {
            request.challengers = try challengers.map(Self.choice)
        } else {
            request.challengers = GlobalExecutorChoice.all.filter { $0.id != request.champion.id }
        }
        if !workload.isEmpty {
            request.comparison.workloads = try Selection.workloads(workload) ?? request.comparison.workloads
        }
        pairsOptions.apply(to: &request.comparison)
        request.comparison.output = output
        let outcome = try GlobalExecutorContest.perform(
            request, launcher: BenchLauncher(), commandLine: Console.commandLine
        ) { Console.error("bench: \($0)") }
        for (challenger, analysis) in outcome.analyses {
            print("\n\(request.champion.id) (B) against \(challenger.id) (A):")
            print(analysis.render())
        }
        print("\nWrote \(outcome.folder.path)/CONTEST.md, contest.csv, jobs.csv and ideals.csv.")
    }

    static func choice(_ id: String) throws -> GlobalExecutorChoice {
        guard let choice = GlobalExecutorChoice.withID(id) else {
            throw ValidationError(
                "unknown global executor '\(id)'; known: \(GlobalExecutorChoice.all.map(\.id).joined(separator: ", "))")
        }
        return choice
    }
}
