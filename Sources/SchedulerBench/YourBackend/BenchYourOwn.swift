import Foundation
import SchedulerConformance

/// Bench your own scheduler from your own package, with the workloads, rounds and CSV of `bench`:
///
/// ```swift
/// // The kit's description of the scheduler (ConformanceBackend: id, traits, sessions), also what `evaluate` judges.
/// let run = try BenchYourOwn.run([.subject(.myScheduler), .subject(.threadPool)], beside: [.rawDispatch],
///                                workloads: [.throughput, .pingPong])
/// print(run.table)                       // the table `bench run` prints; run.folder holds summary.csv, samples.csv
/// ```
///
/// The run folder is the one `bench run` writes (same columns, same provenance), so `bench compare A B` and
/// `bench report --run` read it beside runs of the built-in backends.
public enum BenchYourOwn {
    /// What a run wrote and measured.
    public struct Run: Sendable {
        public let folder: URL
        public let results: RunResults
        /// The summary table, as `bench run` prints it.
        public let table: String
    }

    /// Registers `backends`, then runs `workloads` (default: every one they support, except the allocation counts
    /// of W11–W13, which need `bench`'s own child processes) on them and on the built-in `beside` ones, and writes
    /// `<output>/<run id>/`. Under `.jemalloc`, the program re-executes itself once with jemalloc preloaded (as
    /// `bench` does), so call this early in `main`, before anything else has side effects.
    public static func run(
        _ backends: [Backend], beside builtIn: [BackendID] = [], workloads: [WorkloadID]? = nil,
        scale: Scale = .quick, allocator: AllocatorChoice = .system, output: String = "Results",
        log: @escaping (String) -> Void = { _ in }
    ) throws -> Run {
        guard !backends.isEmpty else {
            throw BenchError.setting("BenchYourOwn.run needs at least one backend of yours")
        }
        guard allocator != .both else {
            throw BenchError.setting(
                "allocator .both needs bench's child processes; run .system and .jemalloc one by one")
        }
        if let counted = workloads?.compactMap(Workload.withID).first(where: \.countsInAChildProcess) {
            throw BenchError.setting(
                "\(counted.id) counts allocations in child processes of bench; leave it out, or run bench itself")
        }
        try Backend.register(backends)
        let chosen = workloads ?? Workload.all.filter { !$0.countsInAChildProcess }.map(\.id)
        let request = RunRequest(
            backends: backends.map(\.id) + builtIn, workloads: chosen, scale: scale, allocator: allocator,
            outputDirectory: output)
        let (folder, results) = try RunSession.perform(
            request, counter: nil, commandLine: CommandLine.arguments.joined(separator: " "),
            progress: { _, _, _ in }, log: log)
        return Run(folder: folder, results: results, table: results.table)
    }
}
