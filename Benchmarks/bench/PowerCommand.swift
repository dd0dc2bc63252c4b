import ArgumentParser
import Foundation
import SchedulerBench
import SchedulerBenchTool

struct PowerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "power",
        abstract: "How small a change can bench ab see here? Plant known slowdowns and count the verdicts.",
        discussion: """
            Runs trials of bench ab's paired processes on this one build: B spins a planted fraction of each \
            backend's time before every task, A spins nothing. Writes the detection rate per backend and effect, \
            and the false alarms of the build against itself (effect 0), to Results/power/<id>/POWER.md and power.csv.
            """
    )

    @Option(name: .long, help: "Backends (repeat or comma-separate; default: all that run the workload).")
    var backend: [String] = []

    @Option(name: .long, help: "The workload to plant in, timed in ns per unit (default: W1).")
    var workload: String = "W1"

    @Option(
        name: .long, parsing: .upToNextOption,
        help: "Planted slowdowns as fractions, 0 for A/A (space- or comma-separated; default: 0 0.02 0.03 0.05 0.1).")
    var effects: [String] = ["0", "0.02", "0.03", "0.05", "0.1"]

    @Option(name: .long, help: "Trials per effect (default: 5).")
    var trials: Int = 5

    @Option(name: .long, help: "Seconds each trial's pairs may take (default: 90).")
    var budget: Double = 90

    @Option(name: .long, help: "The margin of the verdicts, as bench ab --min-effect (default: 0.02).")
    var minEffect: Double = 0.02

    @Option(
        name: .long,
        help: "Plant only in these backends (default: every measured one); the others give A/A verdicts beside them.")
    var plant: [String] = []

    @Option(name: .long, help: "How each trial's pairs run, as bench ab --pairing: duet (default) or sequential.")
    var pairing: String = Pairing.duet.rawValue

    @Option(name: .long, help: "Folder that receives the result's folder.")
    var output: String = "Results/power"

    func run() throws {
        var request = PowerRequest()
        request.backends = try Selection.backends(backend)
        guard let workloads = try Selection.workloads([workload]), workloads.count == 1 else {
            throw ValidationError("--workload takes one workload, e.g. W1")
        }
        request.workload = workloads[0]
        request.effects = try effects.flatMap { $0.split(separator: ",") }.map { text in
            guard let effect = Double(text) else {
                throw ValidationError("--effects takes fractions such as 0 0.03 or 0,0.03; got '\(text)'")
            }
            return effect
        }
        request.trials = trials
        request.budgetSeconds = budget
        request.minimumEffect = minEffect
        request.pairing = try Selection.pairing(pairing)
        request.planted = try Selection.backends(plant)
        request.output = output
        let outcome = try PowerSession.perform(request, launcher: BenchLauncher(), commandLine: Console.commandLine) {
            Console.error("bench: \($0)")
        }
        print(outcome.page)
        print("Wrote \(outcome.folder.path)/POWER.md and power.csv.")
    }
}
