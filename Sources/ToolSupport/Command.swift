import Foundation

/// Running a tool that is not bench (git, swift) and reading what it prints.
public enum Command {
    /// A tool that failed: its name, its first arguments and what it said.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The tool's standard output, trimmed; throws naming the tool and the last line it printed if it fails.
    public static func output(_ tool: String, _ arguments: [String]) throws -> String {
        do {
            return try ChildProcess.run("/usr/bin/env", [tool] + arguments, captureError: true).standardOutput
                .trimmingCharacters(in: .whitespacesAndNewlines)
        } catch let failure as ChildProcess.Failure {
            throw Failure(description: "\(tool) \(arguments.prefix(2).joined(separator: " ")) failed (\(failure))")
        }
    }
}
