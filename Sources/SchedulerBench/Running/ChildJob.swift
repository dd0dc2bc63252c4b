import Foundation
import SchedulerKit
import ToolSupport

/// Work that `bench` hands to a child process: of itself, or (for `bench ab`) of another build.
///
/// This is the relaunch contract. The library says *what* the child must do; only the executable turns a job into
/// a command line (``ChildLauncher``) and parses it back, so no command line is spelt inside the library.
public enum ChildJob: Sendable, Equatable {
    /// `bench run`: one allocator's pass of `--allocator both`, a run of `bench calibrate`, one side of `bench ab`.
    case run(RunRequest)
    /// The allocation pass of W11–W13: count in a process without thread caches, print the counts as CSV.
    case countAllocations(backends: [BackendID], workloads: [WorkloadID], scale: Scale)
    /// One backend's instruction probe, run under valgrind (see ``InstructionProbe``).
    case probeInstructions(backend: BackendID, tasks: Int)
}

/// Turns a job into the arguments of the executable that runs it (implemented by the `bench` executable).
public protocol ChildLauncher: Sendable {
    func arguments(for job: ChildJob) -> [String]
}

/// Starting a child, waiting for it, and reading what it printed.
public enum ChildProcess {
    /// The executable of this process, to run a child of the same build.
    public static let currentExecutable = "/proc/self/exe"

    public struct Failure: Error, CustomStringConvertible {
        public let status: Int32
        public let standardError: String
        public var description: String {
            let last = standardError.split(separator: "\n").last.map { ": \($0)" } ?? ""
            return "exit status \(status)\(last)"
        }
    }

    /// What a child printed.
    public struct Output: Sendable {
        public var standardOutput: String
        /// Empty unless captured.
        public var standardError: String
    }

    /// Runs `job` through `launcher` in `executable` (after `prefix`, e.g. valgrind and its options) and returns what
    /// it printed. Standard error goes to this process's unless `captureError`.
    @discardableResult
    public static func run(
        _ job: ChildJob, launcher: any ChildLauncher, executable: String = currentExecutable,
        prefix: [String] = [], environment: [String: String]? = nil,
        captureError: Bool = false
    ) throws -> Output {
        let command = prefix + [executable] + launcher.arguments(for: job)
        return try run(command[0], Array(command.dropFirst()), environment: environment, captureError: captureError)
    }

    /// Runs a program, waits for it, and returns what it printed; throws with its status if it fails. An
    /// interruption of this process terminates it.
    @discardableResult
    package static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        captureError: Bool
    ) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        if captureError { process.standardError = errors }
        try process.run()
        let registration = Interruption.terminateOnInterrupt(process)
        defer { Interruption.forget(registration) }
        // Read both pipes to the end before waiting, so a child that prints much never blocks on a full pipe.
        let errorText = Locked("")
        let errorReader = Thread {
            let data = errors.fileHandleForReading.readDataToEndOfFile()
            errorText.withLock { $0 = String(decoding: data, as: UTF8.self) }
        }
        if captureError { errorReader.start() }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if captureError { while !errorReader.isFinished { usleep(1_000) } }  // the reader ends with the child's pipe
        guard process.terminationStatus == 0 else {
            throw Failure(status: process.terminationStatus, standardError: errorText.withLock { $0 })
        }
        return Output(standardOutput: text, standardError: errorText.withLock { $0 })
    }
}
