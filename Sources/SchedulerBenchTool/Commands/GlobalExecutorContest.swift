import Foundation
import SchedulerBench
import SchedulerConformance
import SchedulerKit
import ToolSupport

/// What `bench global-executors` was asked for: a champion global executor against challengers, each pair of them
/// a paired comparison (``PairedComparison``) of the same binary on the two, on the workloads where every task and
/// default actor runs on the global executor.
package struct GlobalExecutorContestRequest: Sendable {
    package var champion = GlobalExecutorChoice.champion
    package var challengers = GlobalExecutorChoice.all.filter { $0.id != GlobalExecutorChoice.champion.id }
    /// Default actors and tasks with no preference (W11–W13, W24–W25), and `Task.sleep` (W19), on the lanes where
    /// they run on the global executor, whichever it is; one after the other with the whole machine (a duet would
    /// judge CPU time, which these workloads do not report).
    package var comparison: PairedComparison = {
        var comparison = PairedComparison(
            workloads: GlobalExecutorContestRequest.defaultWorkloads, pairing: .sequential,
            output: "Results/global-executors")
        comparison.backends = GlobalExecutorContestRequest.backends
        return comparison
    }()
    /// W11–W13 with default actors, W12 (a task awaited from a task: the row the pool as a task executor could not
    /// win from the global executor), W19's sleepers, and the two server-shaped workloads.
    package static let defaultWorkloads: [WorkloadID] = [
        .actorHop, .taskLifecycle, .actorPingPong, .clockSleep, .taskFanIn, .actorPipeline,
    ]
    /// `default-executor` and `continuous-clock`: the lanes whose work the global executor runs.
    package static let backends: [BackendID] = [.defaultExecutor, .continuousClock]

    package init() {}

    /// The workloads every pair runs.
    var workloads: [WorkloadID] { comparison.workloads ?? Self.defaultWorkloads }

    /// Everything that can be checked before a measurement starts: the sides, then the comparison's settings and
    /// this machine (``PairedComparison/preflight()``).
    package func preflight() throws {
        guard !challengers.isEmpty, !challengers.contains(where: { $0.id == champion.id }) else {
            throw BenchError.setting(
                "--challengers must name global executors other than the champion (\(champion.id)); known: "
                    + GlobalExecutorChoice.all.map(\.id).joined(separator: ", "))
        }
        try comparison.preflight()
    }
}

/// `bench global-executors`: the same `bench` binary in pairs of processes, one on a challenger's global executor
/// and one on the champion's (`BENCH_GLOBAL_EXECUTOR`), one after the other with the whole machine, judged cell by
/// cell on the per-pair ratios champion/challenger as `bench ab` judges two builds (``ABAnalysis``). Writes
/// `Results/global-executors/<id>/`: `CONTEST.md`, `contest.csv`, `jobs.csv` (``GlobalExecutorJobs``: what each
/// executor is sent while a row is timed) and `ideals.csv` (``GlobalExecutorIdealLine``: each side of a row against its
/// ideal configuration), which show a row out of reach (``OutOfReach``).
package enum GlobalExecutorContest {
    package struct Outcome: Sendable {
        package let folder: URL
        package let analyses: [(challenger: GlobalExecutorChoice, analysis: ABAnalysis)]
        /// Per challenger, its rows with an ideal configuration against that ideal (``GlobalExecutorIdealLine``).
        let ideals: [String: [GlobalExecutorIdealLine]]
        package let page: String
    }

    package static func perform(
        _ request: GlobalExecutorContestRequest, launcher: any ChildLauncher, commandLine: String,
        log: (String) -> Void
    ) throws -> Outcome {
        try request.preflight()
        let bench = try Tool.currentExecutable()
        let environment = Relaunch.childEnvironment(commandLine: commandLine)
        let finished = Locked(0)
        Interruption.install { "after \(finished.withLock { $0 }) pairs; nothing was written" }
        func side(_ choice: GlobalExecutorChoice) -> ProcessSide {
            var settings = environment
            settings[GlobalExecutorChoice.variable] = choice.id
            return ProcessSide(name: choice.id, executable: bench, environment: settings)
        }
        log("Counting the jobs each global executor is sent per unit, in a process on each")
        let jobs = try GlobalExecutorJobs.count(
            on: [request.champion] + request.challengers, workloads: request.workloads,
            scale: request.comparison.scale, launcher: launcher, executable: bench,
            environment: { side($0).environment })
        var analyses: [(challenger: GlobalExecutorChoice, analysis: ABAnalysis)] = []
        var ideals: [String: [GlobalExecutorIdealLine]] = [:]
        for challenger in request.challengers {
            log(
                "A = \(challenger.id) (\(challenger.subject.name)); B = \(request.champion.id) (\(request.champion.subject.name)); "
                    + request.comparison.plan)
            let (pairs, analysis) = try request.comparison.run(
                side(challenger), side(request.champion), launcher: launcher, finished: finished,
                label: "\(challenger.id) vs \(request.champion.id), ", log: log)
            analyses.append((challenger, analysis))
            ideals[challenger.id] = GlobalExecutorIdealLine.lines(pairs, analysis: analysis)
        }
        let git = try? Git()
        let head = (try? git?.commit(of: "HEAD")) ?? "unknown"
        let dirty = (try? git?.isDirty()) ?? false
        let page = markdown(
            analyses, champion: request.champion, jobs: jobs, ideals: ideals, command: commandLine,
            commit: String(head.prefix(12)) + (dirty ? " with uncommitted changes" : ""),
            machine: MachineFingerprint.current.description)
        let id = RunID.make(commit: String(head.prefix(7)))
        let folder = try RunStore(root: request.comparison.output).write(
            runID: id,
            files: [
                "CONTEST.md": page, "contest.csv": csv(analyses, champion: request.champion), "jobs.csv": jobs.csv,
                "ideals.csv": idealsCSV(ideals, champion: request.champion),
            ])
        return Outcome(folder: folder, analyses: analyses, ideals: ideals, page: page)
    }

    /// `contest.csv`: `ab.csv`'s columns after the two global executors of the pair (A the challenger, B the
    /// champion; ratio B/A).
    static func csv(
        _ analyses: [(challenger: GlobalExecutorChoice, analysis: ABAnalysis)], champion: GlobalExecutorChoice
    ) -> String {
        let rows = analyses.flatMap { challenger, analysis in
            analysis.csvRows.map { [challenger.id, champion.id] + $0 }
        }
        return CSV.encode([["a_global_executor", "b_global_executor"] + ABAnalysis.csvHeader] + rows)
    }

    /// `ideals.csv`: each challenger's rows with an ideal configuration against it (``GlobalExecutorIdealLine``).
    static func idealsCSV(_ ideals: [String: [GlobalExecutorIdealLine]], champion: GlobalExecutorChoice) -> String {
        let rows = ideals.keys.sorted().flatMap { challenger in
            ideals[challenger]!.map { $0.csvRow(challenger: challenger, champion: champion.id) }
        }
        return CSV.encode([GlobalExecutorIdealLine.csvHeader] + rows)
    }

    /// `CONTEST.md`: what ran where, then one table per challenger.
    static func markdown(
        _ analyses: [(challenger: GlobalExecutorChoice, analysis: ABAnalysis)], champion: GlobalExecutorChoice,
        jobs: GlobalExecutorJobs, ideals: [String: [GlobalExecutorIdealLine]] = [:], command: String, commit: String,
        machine: String
    ) -> String {
        var lines =
            [
                "# The global executors, paired",
                "",
                "Made by `\(command)` at \(commit) on \(machine). Do not edit: run it again.",
                "",
                "Each pair is two processes of the same `bench` binary, one after the other with the whole machine, one "
                    + "started with `BENCH_GLOBAL_EXECUTOR` naming the challenger (A) and one the champion, "
                    + "\(champion.id) (B): \(champion.subject.summary). Every default actor and every task without a "
                    + "preference of the process runs on it. A cell's verdict rests on the pairs' ratios B/A and their 99 % "
                    + "confidence sequence, as `bench ab` judges two builds (`Docs/Statistics.md`); allocations are exact "
                    + "counts of every thread.",
                "",
            ] + jobs.markdown(order: [champion.id] + analyses.map(\.challenger.id))
        for (challenger, analysis) in analyses {
            lines += [
                "", "## \(champion.id) (B) against \(challenger.id) (A): \(challenger.subject.summary)", "",
                "| workload | parameters | metric | backend | \(challenger.id) | \(champion.id) | B/A (99 %) | pairs | verdict |",
                "|---|---|---|---|--:|--:|--:|--:|---|",
            ]
            let idealLines = ideals[challenger.id] ?? []
            let shownByIdeal = Set(idealLines.filter(\.showsOutOfReach).map { GlobalJobCount.Key($0.cell) })
            for line in analysis.lines {
                let reach = OutOfReach.of(
                    GlobalJobCount.Key(line.cell), champion: champion.id, challenger: challenger.id, jobs: jobs,
                    ideals: shownByIdeal)
                lines.append(
                    "| \(line.cell.workload) | \(line.cell.parameters) | \(line.cell.metric.name) | \(line.cell.backend) | "
                        + "\(Format.short(line.baseline)) | \(Format.short(line.candidate)) | \(Format.present(line.ratio)) | "
                        + "\(line.pairs) | \(line.verdict.rawValue)\(OutOfReach.mark(reach)) |")
            }
            lines += [""] + idealLines.map { $0.markdown(challenger: challenger.id, champion: champion.id) }
            lines += (idealLines.isEmpty ? [] : [""]) + [analysis.tally]
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
