import Foundation
import SchedulerBench
import SchedulerKit
import ToolSupport

/// What `bench ab` was asked for.
package struct ABRequest: Sendable {
    /// A git revision: the build to compare the working tree's with.
    package var baseline: String
    package var backends: [BackendID]?
    /// W1–W4 unless narrowed or widened: throughput and hops, what a change to a scheduler moves, in a pair of a few
    /// seconds. Nil: every workload.
    package var workloads: [WorkloadID]? = ABRequest.defaultWorkloads
    package static let defaultWorkloads: [WorkloadID] = [.throughput, .producers, .fanOut, .pingPong]
    /// Sizes of the workloads in each process (quick by default: many short processes beat a few long ones).
    package var scale: Scale = .quick
    package var rounds: Int?
    /// Seconds the pairs may take, after the first pair, before no new pair starts.
    package var budgetSeconds: Double = 300
    /// The confidence sequence has its first bound at 12 pairs (``ABAnalysis/pairsForABound``).
    package var minimumPairs = ABAnalysis.pairsForABound
    /// No cap of its own: the budget decides how many pairs a noisy cell gets (the confidence sequence may be looked
    /// at after every pair, so more pairs never cost validity).
    package var maximumPairs = ABRequest.pairsRange.upperBound
    /// The smallest change of interest: differences smaller than this fraction are never claimed, and two builds
    /// whose whole interval lies inside it are the same.
    package var minimumEffect = 0.02
    /// A and B at once on one CPU, judged on CPU time (the default: several times tighter here), or one after the
    /// other with the whole machine, judged on every metric (``Pairing``).
    package var pairing = Pairing.duet
    package var cpus: CPUSet?
    /// Also count instructions per task of both builds under callgrind (``ABInstructions``), after the pairs.
    package var countsInstructions = true
    package var output = "Results/ab"
    /// Where baseline builds are kept, one per commit (git-ignored).
    package var cache = ".build-ab"

    package init(baseline: String) { self.baseline = baseline }

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
            backends: backends, workloads: workloads, scale: scale, rounds: rounds, allocator: .jemalloc,
            cpus: cpus, outputDirectory: output)
        run.extraSeconds = 0
        return run
    }

    /// The request alone, whatever this machine has (``RunRequest/checkSettings()``).
    package func checkSettings() throws {
        guard minimumEffect > 0 && minimumEffect < 1 else {
            throw BenchError.setting(
                "--min-effect must be between 0 and 1 (a fraction, e.g. 0.05), got \(minimumEffect)")
        }
        guard budgetSeconds.isFinite && budgetSeconds > 0 && budgetSeconds <= RoundPolicy.longestBudgetSeconds else {
            throw BenchError.setting(
                "--budget must be between 1 and \(Int(RoundPolicy.longestBudgetSeconds)) seconds, got \(budgetSeconds)")
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
}

/// `bench ab --baseline REV`: did my change make it faster? Builds the baseline in a git worktree (release, cached
/// by commit), runs the baseline's and this build's `bench run` in pairs of processes (a duet on one CPU, or one
/// after the other: ``Pairing``), and judges each cell on the per-pair ratios B/A (``ABAnalysis``). Writes
/// `Results/ab/<id>/`.
package enum ABSession {
    package struct Outcome: Sendable {
        package let folder: URL
        package let analysis: ABAnalysis
        package let instructions: ABInstructions?
        package let page: String
    }

    package static func perform(
        _ request: ABRequest, launcher: any ChildLauncher, commandLine: String,
        log: (String) -> Void
    ) throws -> Outcome {
        try request.preflight()
        let git = try Git()
        let baselineCommit = try git.commit(of: request.baseline)
        let head = try git.commit(of: "HEAD")
        let dirty = try git.isDirty()
        if let cpus = request.cpus { try Machine.pin(to: cpus) }  // the children inherit it
        let baseline = try BaselineBuild.binary(for: baselineCommit, git: git, cache: request.cache, log: log)
        let candidate = try Tool.currentExecutable()
        let finished = Locked(0)
        Interruption.install { "after \(finished.withLock { $0 }) pairs; nothing was written" }
        let environment = Relaunch.childEnvironment(commandLine: commandLine)
        log(
            "A = \(baselineCommit.prefix(12)) (\(baseline)); B = the working tree at \(head.prefix(12))\(dirty ? " with changes" : "") "
                + "(\(candidate)); \(request.pairing.summary); at least \(request.minimumPairs), more while a cell is "
                + "undecided and \(Int(request.budgetSeconds)) s last")
        let template = RunRequest(
            backends: request.backends, workloads: request.workloads, scale: request.scale, rounds: request.rounds,
            allocator: .jemalloc)
        let pairs = try PairedProcesses.run(
            template,
            a: ProcessSide(name: "the baseline", executable: baseline, environment: environment),
            b: ProcessSide(name: "the working tree", executable: candidate, environment: environment),
            pairing: request.pairing, launcher: launcher, minimumPairs: request.minimumPairs,
            maximumPairs: request.maximumPairs,
            budgetSeconds: request.budgetSeconds
        ) { pairs, elapsed in
            finished.withLock { $0 = pairs.count }
            let analysis = ABAnalysis(pairs: pairs, minimumEffect: request.minimumEffect, pairing: request.pairing)
            log(
                "pair \(pairs.count) (\(Int(elapsed)) s): \(analysis.count(.faster)) faster, \(analysis.count(.slower)) slower, "
                    + "\(analysis.count(.same)) same, \(analysis.count(.undecided)) undecided")
            return analysis.wantsMorePairs
        }
        let analysis = ABAnalysis(pairs: pairs, minimumEffect: request.minimumEffect, pairing: request.pairing)
        var instructions: ABInstructions?
        if request.countsInstructions {
            log("counting instructions per task of both builds under callgrind (exact counts, no pairs needed)")
            instructions = ABInstructions.measure(
                try RunRequest(backends: request.backends).resolvedBackends(), baseline: baseline,
                candidate: candidate, launcher: launcher, log: log)
        }
        let id = RunID.make(commit: "\(baselineCommit.prefix(7))-vs-\(head.prefix(7))")
        let page = analysis.markdown(
            command: commandLine, baseline: baselineCommit, head: head, dirty: dirty,
            machine: MachineFingerprint.current.description, cpus: Machine.allowedCPUs()?.description ?? "?",
            pinned: request.cpus != nil, request: request, instructions: instructions)
        var files = ["ab.csv": analysis.csv, "pairs.csv": Self.pairsCSV(pairs), "AB.md": page]
        files["instructions.csv"] = instructions?.csv
        let folder = try RunStore(root: request.output).write(runID: id, files: files)
        return Outcome(folder: folder, analysis: analysis, instructions: instructions, page: page)
    }

    /// Every process's figure of every cell, for re-analysis.
    static func pairsCSV(_ pairs: [ProcessPair]) -> String {
        var rows = [["pair", "side", "backend", "workload", "parameters", "metric", "unit", "median"]]
        for (index, pair) in pairs.enumerated() {
            for (side, summary) in [("A", pair.baseline), ("B", pair.candidate)] {
                rows += summary.map {
                    [
                        String(index + 1), side, $0.backend.rawValue, $0.workload.rawValue, $0.parameters.description,
                        $0.metric.name, $0.metric.unit, Format.number($0.summary.median.value),
                    ]
                }
            }
        }
        return CSV.encode(rows)
    }
}

/// The baseline's `bench`, built once per commit in a git worktree of its own and kept under the cache folder.
enum BaselineBuild {
    static func binary(for commit: String, git: Git, cache: String, log: (String) -> Void) throws -> String {
        let folder = URL(fileURLWithPath: cache, isDirectory: true).appendingPathComponent(String(commit.prefix(12)))
        let binary = folder.appendingPathComponent("bench")
        if FileManager.default.isExecutableFile(atPath: binary.path) {
            log("baseline \(commit.prefix(12)): using the build cached at \(binary.path)")
            return binary.path
        }
        let source = folder.appendingPathComponent("src")
        let build = folder.appendingPathComponent("build")
        try? FileManager.default.removeItem(at: source)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let registration = Interruption.removeOnInterrupt(folder)
        defer { Interruption.forget(registration) }
        log(
            "baseline \(commit.prefix(12)): building bench in a worktree (swift build -c release --product bench); "
                + "a first build takes a few minutes")
        try git.run(["worktree", "add", "--detach", source.path, commit])
        defer {
            _ = try? git.run(["worktree", "remove", "--force", source.path])
            try? FileManager.default.removeItem(at: build)
        }
        _ = try Command.output(
            "swift",
            [
                "build", "-c", "release", "--product", "bench", "--package-path", source.path,
                "--scratch-path", build.path,
            ])
        try FileManager.default.copyItem(at: build.appendingPathComponent("release/bench"), to: binary)
        return binary.path
    }
}

/// The repository around the current folder.
struct Git {
    init() throws {
        guard (try? Command.output("git", ["rev-parse", "--show-toplevel"])) != nil else {
            throw BenchError.machine("bench ab needs a git repository: run it from the repository root")
        }
    }

    func commit(of revision: String) throws -> String {
        do { return try Command.output("git", ["rev-parse", "--verify", "--quiet", "\(revision)^{commit}"]) } catch {
            throw BenchError.setting(
                "'\(revision)' is not a commit of this repository; pass --baseline <commit, branch or tag>")
        }
    }

    func isDirty() throws -> Bool {
        !(try Command.output("git", ["status", "--porcelain", "--untracked-files=no"])).isEmpty
    }

    @discardableResult
    func run(_ arguments: [String]) throws -> String { try Command.output("git", arguments) }
}
