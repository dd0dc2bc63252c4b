import Foundation
import SchedulerBench
import SchedulerKit
import ToolSupport

/// What `bench ab` was asked for: this build (B) against the build of a git revision (A), in pairs of processes.
package struct ABRequest: Sendable {
    /// A git revision: the build to compare the working tree's with.
    package var baseline: String
    /// W1–W4 unless narrowed or widened: throughput and hops, what a change to a scheduler moves, in a pair of a few
    /// seconds; by default a duet.
    package var comparison = PairedComparison(
        workloads: ABRequest.defaultWorkloads, pairing: .duet, output: "Results/ab")
    package static let defaultWorkloads: [WorkloadID] = [.throughput, .producers, .fanOut, .pingPong]
    /// Also count instructions per task of both builds under callgrind (``ABInstructions``), after the pairs.
    package var countsInstructions = true
    /// Where baseline builds are kept, one per commit (git-ignored).
    package var cache = ".build-ab"

    package init(baseline: String) { self.baseline = baseline }
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
        let comparison = request.comparison
        try comparison.preflight()
        let git = try Git()
        let baselineCommit = try git.commit(of: request.baseline)
        let head = try git.commit(of: "HEAD")
        let dirty = try git.isDirty()
        if let cpus = comparison.cpus { try Machine.pin(to: cpus) }  // the children inherit it
        let baseline = try BaselineBuild.binary(for: baselineCommit, git: git, cache: request.cache, log: log)
        let candidate = try Tool.currentExecutable()
        let finished = Locked(0)
        Interruption.install { "after \(finished.withLock { $0 }) pairs; nothing was written" }
        let environment = Relaunch.childEnvironment(commandLine: commandLine)
        log(
            "A = \(baselineCommit.prefix(12)) (\(baseline)); B = the working tree at \(head.prefix(12))\(dirty ? " with changes" : "") "
                + "(\(candidate)); \(comparison.plan)")
        let (pairs, analysis) = try comparison.run(
            ProcessSide(name: "the baseline", executable: baseline, environment: environment),
            ProcessSide(name: "the working tree", executable: candidate, environment: environment),
            launcher: launcher, finished: finished, label: "", log: log)
        var instructions: ABInstructions?
        if request.countsInstructions {
            log("counting instructions per task of both builds under callgrind (exact counts, no pairs needed)")
            instructions = ABInstructions.measure(
                try RunRequest(backends: comparison.backends).resolvedBackends(), baseline: baseline,
                candidate: candidate, launcher: launcher, log: log)
        }
        let id = RunID.make(commit: "\(baselineCommit.prefix(7))-vs-\(head.prefix(7))")
        let page = analysis.markdown(
            command: commandLine, baseline: baselineCommit, head: head, dirty: dirty,
            machine: MachineFingerprint.current.description, cpus: Machine.allowedCPUs()?.description ?? "?",
            pinned: comparison.cpus != nil, comparison: comparison, instructions: instructions)
        var files = ["ab.csv": analysis.csv, "pairs.csv": Self.pairsCSV(pairs), "AB.md": page]
        files["instructions.csv"] = instructions?.csv
        let folder = try RunStore(root: comparison.output).write(runID: id, files: files)
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
