import Foundation
import SchedulerKit

/// Starting a process (a child of this program, git, valgrind's), waiting for it, and reading what it printed.
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

    /// Runs a program, waits for it, and returns what it printed; throws with its status if it fails. An
    /// interruption of this process terminates it.
    @discardableResult
    public static func run(
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
