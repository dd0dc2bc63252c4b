import Foundation
import ToolSupport

/// Running a tool that is not bench (git, swift) and reading what it prints.
package enum Command {
    /// The tool's standard output, trimmed; throws naming the tool and the last line it printed if it fails.
    package static func output(_ tool: String, _ arguments: [String]) throws -> String {
        do {
            return try ChildProcess.run("/usr/bin/env", [tool] + arguments, captureError: true).standardOutput
                .trimmingCharacters(in: .whitespacesAndNewlines)
        } catch let failure as ChildProcess.Failure {
            throw BenchError.failed("\(tool) \(arguments.prefix(2).joined(separator: " ")) failed (\(failure))")
        }
    }
}
