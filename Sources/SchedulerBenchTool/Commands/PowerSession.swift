import Foundation
import SchedulerBench
import SchedulerConformance
import SchedulerKit
import ToolSupport

/// What `bench power` was asked for.
package struct PowerRequest: Sendable {
    package var backends: [BackendID]?
    /// The one workload whose first metric (a time per unit, e.g. W1's ns per task) the slowdowns are planted in.
    package var workload: WorkloadID = .throughput
    /// Planted slowdowns, as fractions of each backend's figure; 0 is a comparison of the build with itself.
    package var effects: [Double] = [0, 0.02, 0.03, 0.05, 0.10]
    package var trials = 5
    /// Seconds each trial's pairs may take, as `bench ab --budget`.
    package var budgetSeconds: Double = 90
    /// The margin the verdicts use, as `bench ab --min-effect`.
    package var minimumEffect = 0.02
    /// How each trial's pairs run, as `bench ab --pairing`.
    package var pairing = Pairing.duet
    /// The backends the slowdowns are planted in; nil: every selected one. The others run unplanted beside them, so
    /// every trial also gives their A/A verdicts: a plant in one backend must not mark another.
    package var planted: [BackendID]?
    package var output = "Results/power"

    package init() {}

    static let trialsRange = 1...100

    /// Everything that can be checked before a measurement starts: the settings, then the machine.
    package func preflight() throws {
        try checkSettings()
        try trial.checkMachine()
    }

    /// One trial's comparison of the build with itself.
    var trial: PairedComparison {
        var trial = PairedComparison(workloads: [workload], pairing: pairing, output: output)
        trial.backends = backends
        trial.budgetSeconds = budgetSeconds
        trial.minimumEffect = minimumEffect
        return trial
    }

    /// The request alone, whatever this machine has.
    package func checkSettings() throws {
        guard !effects.isEmpty, effects.allSatisfy({ $0 >= 0 && $0 < 1 }) else {
            throw BenchError.setting("--effects must be fractions from 0 up to 1, e.g. 0,0.03,0.05; got \(effects)")
        }
        guard Self.trialsRange.contains(trials) else {
            throw BenchError.setting("--trials must be between 1 and \(Self.trialsRange.upperBound), got \(trials)")
        }
        try trial.checkSettings()
        guard let metric = try plantedMetric(), metric.unit == "ns" else {
            throw BenchError.setting(
                "bench power plants a delay per task: pick a workload timed in ns per unit, such as W1")
        }
        if let planted {
            let measured = Set(try RunRequest(backends: backends, workloads: [workload]).resolvedBackends().map(\.id))
            if let stray = planted.first(where: { !measured.contains($0) }) {
                throw BenchError.setting(
                    "--plant \(stray): not among the backends measured on \(workload); add it to --backend")
            }
        }
    }

    /// Whether `backend`'s tasks get the slowdown.
    func plants(_ backend: BackendID) -> Bool { planted?.contains(backend) ?? true }

    /// The figure the plants are sized from and judged on: the workload's first metric that the pairing judges (a
    /// duet's is CPU time per unit, a delay spun in every task adds to it one for one).
    func plantedMetric() throws -> Metric? {
        try RunRequest(workloads: [workload]).resolvedWorkloads().first?.metrics.first(where: pairing.judges)
    }
}

/// `bench power`: how often `bench ab`'s verdicts find a slowdown of a known size on this machine, and how often they
/// mark a build against itself (`Docs/Statistics.md`).
///
/// A pilot process measures each backend's figure; then, for every planted effect and trial, pairs of processes of
/// this same build run as `bench ab` runs them, B with a delay of the effect times the pilot's figure spun before
/// every task of every selected backend (``PlantedDelay``), A with a delay of 0, until each cell is decided or the
/// trial's budget ends. An effect of 0 is an A/A trial: every verdict other than same or undecided is a false alarm.
package enum PowerSession {
    package struct Trial: Sendable {
        /// The slowdown planted in this cell's backend: 0 in an A/A trial, and for a backend left unplanted.
        package let effect: Double
        /// The slowdown planted in the trial (in the planted backends).
        package let trialEffect: Double
        package let index: Int
        package let line: ABAnalysis.Line
        /// Every pair's ratio B/A of the cell: pooled over an effect's trials, they measure the effect the plant
        /// really had (a delay in an asynchronous backend's tasks can even speed its throughput up: the worker then
        /// sleeps less).
        package let ratios: [Double]
        package let seconds: Double
    }

    package struct Outcome: Sendable {
        package let folder: URL
        package let trials: [Trial]
        package let page: String
    }

    package static func perform(
        _ request: PowerRequest, launcher: any ChildLauncher, commandLine: String, log: (String) -> Void
    ) throws -> Outcome {
        try request.preflight()
        try FileManager.default.createDirectory(atPath: request.output, withIntermediateDirectories: true)
        let metric = try request.plantedMetric()!
        let bench = try Tool.currentExecutable()
        let environment = Relaunch.childEnvironment(commandLine: commandLine)
        let template = RunRequest(
            backends: request.backends, workloads: [request.workload], scale: .quick, allocator: .jemalloc)
        let finished = Locked(0)
        Interruption.install { "after \(finished.withLock { $0 }) trials; nothing was written" }
        let pilot = try pilotFigures(
            template, metric: metric, pairing: request.pairing, bench: bench, environment: environment,
            launcher: launcher)
        log(
            "pilot: "
                + pilot.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key) \(Format.short($0.value)) ns" }
                .joined(separator: ", "))
        var trials: [Trial] = []
        for effect in request.effects {
            for index in 1...request.trials {
                let started = Date()
                func side(_ name: String, _ fraction: Double) -> ProcessSide {
                    var settings = environment
                    settings[PlantedDelay.variable] =
                        PlantedDelay(
                            nanoseconds: pilot.filter { request.plants($0.key) }.mapValues { $0 * fraction }
                        ).environmentValue
                    return ProcessSide(name: name, executable: bench, environment: settings)
                }
                let (pairs, analysis) = try request.trial.run(
                    side("A", 0), side("B", effect), launcher: launcher,
                    decided: { planted($0, metric).allSatisfy { $0.verdict != .undecided } })
                let seconds = Date().timeIntervalSince(started)
                let lines = planted(analysis, metric)
                trials += lines.map { line in
                    let ratios = pairs.compactMap { pair -> Double? in
                        guard let a = pair.baseline.first(where: { $0.key == line.cell }),
                            let b = pair.candidate.first(where: { $0.key == line.cell }), a.summary.median.value > 0
                        else { return nil }
                        return b.summary.median.value / a.summary.median.value
                    }
                    return Trial(
                        effect: request.plants(line.cell.backend) ? effect : 0, trialEffect: effect, index: index,
                        line: line, ratios: ratios, seconds: seconds)
                }
                finished.withLock { $0 += 1 }
                log(
                    "effect \(Format.short(effect * 100)) %, trial \(index): \(pairs.count) pairs in \(Int(seconds)) s; "
                        + lines.map { "\($0.cell.backend) \($0.verdict.rawValue)" }.joined(separator: ", "))
            }
        }
        let page = PowerReport.markdown(trials, request: request, metric: metric, pilot: pilot, command: commandLine)
        let id = RunID.make(commit: (try? Git().commit(of: "HEAD")).map { String($0.prefix(7)) } ?? "unknown")
        let folder = try RunStore(root: request.output).write(
            runID: id, files: ["power.csv": PowerReport.csv(trials, pairing: request.pairing), "POWER.md": page])
        do {
            _ = try Report.drawCharts(
                PowerReport.chartPoints(
                    trials, effects: PowerReport.shownEffects(trials, request: request),
                    margin: request.minimumEffect),
                allocator: .jemalloc,
                into: folder.appendingPathComponent("charts").path, log: log)
        } catch {
            log("no chart drawn (\(error)); POWER.md and power.csv are complete")
        }
        return Outcome(folder: folder, trials: trials, page: page)
    }

    private static func planted(_ analysis: ABAnalysis, _ metric: Metric) -> [ABAnalysis.Line] {
        analysis.lines.filter { $0.cell.metric == metric }
    }

    /// Pilot pairs: one process's figure can sit in a slow stretch of the machine, and the plants are sized from it.
    static let pilotPairs = 2

    /// Each backend's figure of the planted metric as the trials will measure it (pairs of the same pairing, nothing
    /// planted): the median over the ``pilotPairs`` pairs' processes.
    private static func pilotFigures(
        _ template: RunRequest, metric: Metric, pairing: Pairing, bench: String, environment: [String: String],
        launcher: any ChildLauncher
    ) throws -> [BackendID: Double] {
        let side = ProcessSide(name: "pilot", executable: bench, environment: environment)
        let pairs = try PairedProcesses.run(
            template, a: side, b: ProcessSide(name: "pilot B", executable: bench, environment: environment),
            pairing: pairing, launcher: launcher, minimumPairs: pilotPairs, maximumPairs: pilotPairs,
            budgetSeconds: .infinity
        ) { _, _ in true }
        var figures: [BackendID: [Double]] = [:]
        for row in pairs.flatMap({ $0.baseline + $0.candidate }) where row.metric == metric {
            figures[row.backend, default: []].append(row.summary.median.value)
        }
        return figures.mapValues { Statistics.median($0) }
    }
}
