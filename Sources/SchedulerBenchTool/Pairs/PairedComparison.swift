import Foundation
import SchedulerBench
import SchedulerConformance
import SchedulerKit
import ToolSupport

/// Two sides compared in pairs of `bench run` processes, judged cell by cell on the pairs' ratios B/A
/// (``ABAnalysis``): what `bench ab` runs with a build on each side, `bench global-executors` with a global executor
/// on each side (one binary, ``GlobalExecutorChoice``), and `bench power` with a planted delay on one side. One set
/// of settings, one preflight, one loop of pairs, one verdict.
package struct PairedComparison: Sendable {
    package var backends: [BackendID]?
    /// Nil: every workload.
    package var workloads: [WorkloadID]?
    /// Sizes of the workloads in each process (quick by default: many short processes beat a few long ones).
    package var scale: Scale = .quick
    package var rounds: Int?
    /// Seconds the pairs may take, after the first pair, before no new pair starts.
    package var budgetSeconds: Double = 300
    /// The confidence sequence has its first bound at 12 pairs (``ABAnalysis/pairsForABound``).
    package var minimumPairs = ABAnalysis.pairsForABound
    /// No cap of its own: the budget decides how many pairs a noisy cell gets (the confidence sequence may be looked
    /// at after every pair, so more pairs never cost validity).
    package var maximumPairs = PairedComparison.pairsRange.upperBound
    /// The smallest change of interest: differences smaller than this fraction are never claimed, and two sides
    /// whose whole interval lies inside it are the same.
    package var minimumEffect = 0.02
    /// A and B at once on one CPU, judged on CPU time, or one after the other with the whole machine, judged on
    /// every metric (``Pairing``).
    package var pairing: Pairing
    package var cpus: CPUSet?
    /// The folder that receives the comparison's folder.
    package var output: String

    /// Every backend; the other settings at their defaults.
    package init(workloads: [WorkloadID]?, pairing: Pairing, output: String) {
        self.workloads = workloads
        self.pairing = pairing
        self.output = output
    }

    /// Two pairs make a ratio; beyond a thousand, another pair says nothing new.
    static let pairsRange = 2...1_000

    /// Everything that can be checked before a build or a measurement starts: the settings, then the machine.
    package func preflight() throws {
        try checkSettings()
        try checkMachine()
    }

    /// What this machine must offer a pair (``RunRequest/checkMachine()``).
    package func checkMachine() throws { try measuringRun.checkMachine() }

    /// What one process of a pair runs (always under jemalloc: its allocations are part of the comparison).
    var measuringRun: RunRequest {
        var run = RunRequest(
            backends: backends, workloads: workloads, scale: scale, rounds: rounds, allocator: .jemalloc, cpus: cpus,
            outputDirectory: output)
        run.extraSeconds = 0
        return run
    }

    /// The settings alone, whatever this machine has (``RunRequest/checkSettings()``).
    package func checkSettings() throws {
        guard minimumEffect > 0 && minimumEffect < 1 else {
            throw BenchError.setting(
                "--min-effect must be between 0 and 1 (a fraction, e.g. 0.05), got \(minimumEffect)")
        }
        guard budgetSeconds.isFinite && budgetSeconds > 0 && budgetSeconds <= RunRequest.longestBudgetSeconds else {
            throw BenchError.setting(
                "--budget must be between 1 and \(Int(RunRequest.longestBudgetSeconds)) seconds, got \(budgetSeconds)")
        }
        guard Self.pairsRange.contains(minimumPairs), minimumPairs <= maximumPairs,
            maximumPairs <= Self.pairsRange.upperBound
        else {
            throw BenchError.setting(
                "--pairs must be between \(Self.pairsRange.lowerBound) and \(Self.pairsRange.upperBound), got \(minimumPairs)"
            )
        }
        let run = measuringRun
        try run.checkSettings()
        if pairing == .duet, try !run.resolvedWorkloads().contains(where: { $0.metrics.contains(where: \.isCPUTime) }) {
            throw BenchError.setting(
                "a duet judges CPU time, which none of these workloads reports (W1–W4 do); add one or pass --pairing sequential"
            )
        }
    }

    /// The verdicts on `pairs` (``ABAnalysis``).
    package func analysis(of pairs: [ProcessPair]) -> ABAnalysis {
        ABAnalysis(pairs: pairs, minimumEffect: minimumEffect, pairing: pairing)
    }

    /// Runs pairs of `a` and `b` until, after ``minimumPairs``, `decided` finds the verdicts so far settled (by
    /// default: no cell undecided), or until another pair would pass the budget, and judges them. `finished` counts
    /// the pairs (for an interruption's message); `label`, when given, starts the line logged after each pair.
    func run(
        _ a: ProcessSide, _ b: ProcessSide, launcher: any ChildLauncher, finished: Locked<Int>? = nil,
        label: String? = nil,
        decided: (ABAnalysis) -> Bool = { !$0.wantsMorePairs }, log: (String) -> Void = { _ in }
    ) throws -> (pairs: [ProcessPair], analysis: ABAnalysis) {
        let template = RunRequest(
            backends: backends, workloads: workloads, scale: scale, rounds: rounds, allocator: .jemalloc)
        let pairs = try PairedProcesses.run(
            template, a: a, b: b, pairing: pairing, launcher: launcher, minimumPairs: minimumPairs,
            maximumPairs: maximumPairs, budgetSeconds: budgetSeconds
        ) { pairs, elapsed in
            finished?.withLock { $0 += 1 }
            let analysis = analysis(of: pairs)
            if let label {
                log(
                    "\(label)pair \(pairs.count) (\(Int(elapsed)) s): \(analysis.count(.faster)) faster, "
                        + "\(analysis.count(.slower)) slower, \(analysis.count(.same)) same, "
                        + "\(analysis.count(.undecided)) undecided")
            }
            return !decided(analysis)
        }
        return (pairs, analysis(of: pairs))
    }

    /// The line that says how the pairs will run, after the two sides' names.
    package var plan: String {
        "\(pairing.summary); at least \(minimumPairs) pairs, more while a cell is undecided and "
            + "\(Int(budgetSeconds)) s last"
    }
}
