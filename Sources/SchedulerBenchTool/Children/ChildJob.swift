import Foundation
import SchedulerBench
import SchedulerConformance
import SchedulerKit
import ToolSupport

/// Work that `bench` hands to a child process: of itself, or (for `bench ab`) of another build.
///
/// This is the relaunch contract. The tool says *what* the child must do; only the executable turns a job into
/// a command line (``ChildLauncher``) and parses it back, so no command line is spelt inside a library.
package enum ChildJob: Sendable, Equatable {
    /// `bench run`: one allocator's pass of `--allocator both`, a run of `bench calibrate`, one side of `bench ab`.
    case run(RunRequest)
    /// The allocation pass of W11–W13: count in a process without thread caches, print the counts as CSV.
    case countAllocations(backends: [BackendID], workloads: [WorkloadID], scale: Scale)
    /// One backend's instruction probe, run under valgrind (see ``InstructionProbe``).
    case probeInstructions(backend: BackendID, tasks: Int)
    /// `bench global-executors`' count: jobs through this process's global executor per unit, as CSV
    /// (``GlobalJobCount``).
    case countGlobalJobs(workloads: [WorkloadID], scale: Scale)
}

/// Turns a job into the arguments of the executable that runs it (implemented by the `bench` executable).
package protocol ChildLauncher: Sendable {
    func arguments(for job: ChildJob) -> [String]
}

extension ChildProcess {
    /// Runs `job` through `launcher` in `executable` (after `prefix`, e.g. valgrind and its options) and returns what
    /// it printed. Standard error goes to this process's unless `captureError`.
    @discardableResult
    package static func run(
        _ job: ChildJob, launcher: any ChildLauncher, executable: String = currentExecutable,
        prefix: [String] = [], environment: [String: String]? = nil,
        captureError: Bool = false
    ) throws -> Output {
        let command = prefix + [executable] + launcher.arguments(for: job)
        return try run(command[0], Array(command.dropFirst()), environment: environment, captureError: captureError)
    }

    /// The allocation pass's counter in `bench`: a child of this program, started through `launcher`.
    package static func allocationCounter(_ launcher: any ChildLauncher) -> AllocationPass.Counter {
        { backends, workloads, scale, environment in
            try run(
                .countAllocations(backends: backends, workloads: workloads, scale: scale), launcher: launcher,
                environment: environment
            ).standardOutput
        }
    }
}
