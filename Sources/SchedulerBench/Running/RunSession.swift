import Foundation
import SchedulerConformance
import SchedulerKit
import ToolSupport

/// Why the bench cannot do what it was asked, by kind, so that a caller can tell a mistake of its own from what a
/// machine lacks or a step that failed; each case carries the one line a user reads, which says what to do. A run
/// request's own settings have a typed error of their own (``RequestError``).
public enum BenchError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A setting or an argument is wrong: the same mistake on any machine.
    case setting(String)
    /// This machine lacks what the work needs (a tool, free space, CPUs, a repository).
    case machine(String)
    /// A file or folder given to the bench is missing, or is not what the bench writes.
    case input(String)
    /// A step of the work failed part-way; nothing half-done was kept.
    case failed(String)

    public var description: String {
        switch self {
        case .setting(let line), .machine(let line), .input(let line), .failed(let line): line
        }
    }
}

/// What `bench run` was asked for, after parsing: backends and workloads as identifiers (nil: every one known, the
/// registered backends and the references; every workload).
public struct RunRequest: Sendable, Equatable {
    public var backends: [BackendID]?
    public var workloads: [WorkloadID]?
    public var scale: Scale
    /// Measured rounds per cell before any extra round (nil: the scale's).
    public var rounds: Int?
    /// The shortest round, in milliseconds (nil: the scale's).
    public var roundMilliseconds: Int?
    /// Seconds the run may spend on extra rounds for wide intervals (nil: the scale's).
    public var extraSeconds: Double?
    public var allocator: AllocatorChoice
    /// Restrict the process to these CPUs before any thread of a backend exists (nil: leave the affinity alone).
    public var cpus: CPUSet?
    /// Where the run folder goes; nil: `Results/` for full runs, `Results/quick/` (git-ignored) for the others.
    public var outputDirectory: String?
    /// Given by a parent that runs one child per allocator, so that both halves share one run id.
    public var runID: String?

    public init(
        backends: [BackendID]? = nil, workloads: [WorkloadID]? = nil, scale: Scale = .full, rounds: Int? = nil,
        roundMilliseconds: Int? = nil, extraSeconds: Double? = nil, allocator: AllocatorChoice = .jemalloc,
        cpus: CPUSet? = nil,
        outputDirectory: String? = nil, runID: String? = nil
    ) {
        self.backends = backends
        self.workloads = workloads
        self.scale = scale
        self.rounds = rounds
        self.roundMilliseconds = roundMilliseconds
        self.extraSeconds = extraSeconds
        self.allocator = allocator
        self.cpus = cpus
        self.outputDirectory = outputDirectory
        self.runID = runID
    }

    public var resultsRoot: String { outputDirectory ?? (scale == .full ? "Results" : "Results/quick") }

    /// The longest time budget a run (``extraSeconds``) or a comparison accepts, in seconds: beyond a day it is a
    /// typing error, not a plan.
    public static let longestBudgetSeconds = RoundPolicy.longestBudgetSeconds

    /// The round policy after ``rounds``, ``roundMilliseconds`` and ``extraSeconds``; throws for values out of range.
    func policy() throws(RequestError) -> RoundPolicy {
        var policy = scale.roundPolicy
        if let rounds {
            guard (1...RoundPolicy.roundsLimit).contains(rounds) else {
                throw .outOfRange(.rounds, value: "\(rounds)", allowed: "between 1 and \(RoundPolicy.roundsLimit)")
            }
            policy.rounds = rounds
            policy.maximumRounds = max(policy.maximumRounds, rounds)
        }
        if let roundMilliseconds {
            guard (1...RoundPolicy.longestRoundMilliseconds).contains(roundMilliseconds) else {
                throw .outOfRange(
                    .roundMilliseconds, value: "\(roundMilliseconds)",
                    allowed: "between 1 and \(RoundPolicy.longestRoundMilliseconds)")
            }
            policy.minimumRoundSeconds = Double(roundMilliseconds) / 1_000
        }
        if let extraSeconds {
            guard extraSeconds.isFinite, (0...RoundPolicy.longestBudgetSeconds).contains(extraSeconds) else {
                throw .outOfRange(
                    .extraSeconds, value: "\(extraSeconds)",
                    allowed: "between 0 and \(Int(RoundPolicy.longestBudgetSeconds)) seconds")
            }
            policy.extraSeconds = extraSeconds
        }
        return policy
    }

    public func resolvedBackends() throws(RequestError) -> [Backend] {
        try (backends ?? Backend.known.map(\.id)).map { id throws(RequestError) in
            guard let backend = Backend.withID(id) else { throw .unknown(.backend, value: id.rawValue) }
            return backend
        }
    }

    public func resolvedWorkloads() throws(RequestError) -> [Workload] {
        try (workloads ?? Workload.all.map(\.id)).map { id throws(RequestError) in
            guard let workload = Workload.withID(id) else { throw .unknown(.workload, value: id.rawValue) }
            return workload
        }
    }

    /// Everything that can be checked before anything runs: the settings, then what this machine must have.
    public func preflight() throws {
        try checkSettings()
        try checkMachine()
    }

    /// The request alone: names and ranges, and that something is left to run. A mistake here is the same mistake on
    /// any machine, so it is reported before anything this machine lacks (a fresh machine without jemalloc still
    /// learns that its `--rounds` is out of range).
    public func checkSettings() throws(RequestError) {
        _ = try policy()
        let (backends, workloads) = (try resolvedBackends(), try resolvedWorkloads())
        guard Runner(backends: backends, workloads: workloads, scale: scale).plan.isEmpty == false else {
            throw .nothingToRun
        }
    }

    /// What this machine must offer the request: the CPUs, a writable results folder, the allocators.
    public func checkMachine() throws {
        if let cpus, let allowed = Machine.allowedCPUs(), !cpus.isSubset(of: allowed) {
            throw RequestError.cpusNotAllowed(requested: cpus, allowed: allowed)
        }
        do { try RunStore(root: resultsRoot).preflight() } catch RunStore.Failure.unusable(let problem) {
            throw RequestError.unusableOutput(problem: problem)
        }
        for allocator in allocator.passes { try Relaunch.checkAvailable(allocator) }
    }
}

/// `bench run`: checks everything it can, runs under the requested allocator on the requested CPUs, writes the run
/// folder whole or not at all.
package enum RunSession {
    /// Runs the request in this process (one allocator) and writes `<root>/<run-id>/`. Returns the folder and rows.
    /// Without a `counter` (a package's own runner) the allocation pass, which needs another process, is left out.
    package static func perform(
        _ request: RunRequest, counter: AllocationPass.Counter?, commandLine: String,
        progress: @escaping (Int, Int, String) -> Void,
        log: (String) -> Void
    ) throws -> (URL, RunResults) {
        precondition(request.allocator != .both, "perform runs one allocator; performBoth runs two children")
        try request.preflight()
        try Relaunch.ensure(request.allocator)
        // From here on this is the process that measures: pin it before any backend's thread exists.
        if let cpus = request.cpus { try Machine.pin(to: cpus) }
        let counters = SchedulingCounters.start()
        let (backends, workloads, policy) = (
            try request.resolvedBackends(), try request.resolvedWorkloads(), try request.policy()
        )
        let runner = Runner(backends: backends, workloads: workloads, scale: request.scale, policy: policy)
        let done = Locked((rounds: 0, planned: runner.baseSteps))
        Interruption.install {
            let (rounds, planned) = done.withLock { ($0.rounds, $0.planned) }
            return "after \(rounds) of \(planned) rounds; nothing was written, the run is discarded"
        }
        if request.allocator == .jemalloc {
            guard let proof = Jemalloc.liveProof() else { throw Relaunch.notLive }
            log(proof)
        } else {
            log("system allocator (glibc malloc): jemalloc is not loaded; allocation counts are not available")
        }
        let command = ProcessInfo.processInfo.environment[Relaunch.parentCommandVariable] ?? commandLine
        var metadata = RunMetadata.collect(command: command, clockOverhead: BenchClock.overhead)
        if let runID = request.runID { metadata.runID = runID }
        metadata.scale = request.scale.rawValue
        metadata.selection = RunSelection.describe(backends: backends, workloads: workloads)
        let cpus = Machine.allowedCPUs()
        metadata.cpus = cpus?.description ?? "unknown"
        metadata.pinned = request.cpus != nil
        metadata.roundPolicy = policy.description
        metadata.schedulingCounters = counters
        log(
            "run \(metadata.runID) on \(metadata.host) (\(metadata.cpuModel), \(metadata.cores) cores, CPUs \(metadata.cpus)"
                + "\(metadata.pinned ? " pinned" : ""), load \(metadata.loadAverage)); \(policy); clock read costs "
                + "\(Format.short(metadata.clockOverheadNanoseconds)) ns; per round: \(counters)")
        let cells = runner.run { step, planned, what in
            done.withLock { $0 = (step, planned) }
            progress(step, planned, what)
        }
        let counted = AllocationPass.run(for: runner, counter: counter, log: log)
        if let cpus, request.cpus != nil {
            let strays = Machine.threadsOutside(cpus)
            guard strays.isEmpty else {
                throw BenchError.failed(
                    "threads escaped the CPUs asked for (\(cpus)): \(strays.joined(separator: ", ")); nothing was written"
                )
            }
        }
        let results = RunResults(
            cells: AllocationPass.merge(counted, into: cells), metadata: metadata,
            allocator: request.allocator)
        let folder = try RunStore(root: request.resultsRoot).write(runID: metadata.runID, files: results.files)
        return (folder, results)
    }
}

extension RunResults {
    /// The run folder's files.
    var files: [String: String] {
        [
            "summary.csv": CSV.encode([SummaryRow.columns] + summary.map(\.fields)),
            "samples.csv": CSV.encode([SampleRow.columns] + samples.map(\.fields)),
        ]
    }
}
