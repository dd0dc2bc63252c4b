import Foundation
import SchedulerBench

extension Relaunch {
    /// The environment of a child `bench run`: it chooses its allocator itself, and its rows name the command that
    /// the person typed (`commandLine`).
    package static func childEnvironment(commandLine: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment[marker] = nil
        environment[parentCommandVariable] = commandLine
        return environment
    }
}
