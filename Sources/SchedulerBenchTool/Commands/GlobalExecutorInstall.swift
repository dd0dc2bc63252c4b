import Foundation
import SchedulerBench

extension GlobalExecutorChoice {
    /// Installs the global executor this process was started with (`BENCH_GLOBAL_EXECUTOR=pool`), before anything
    /// starts a task; nothing without the variable. `bench` calls it first thing, so that the children it starts run on
    /// the same one. An unknown id, or a takeover that did not happen, stops the process with a one-line error: a
    /// measurement on the wrong executor would be worse than none.
    package static func installIfAsked() {
        guard let id = ProcessInfo.processInfo.environment[variable], !id.isEmpty else { return }
        guard let choice = withID(id) else {
            fail("\(variable)=\(id) names no global executor; use one of \(all.map(\.id).joined(separator: ", "))")
        }
        guard choice.subject.unsafeInstall() else {
            fail("\(variable)=\(id): \(choice.subject.name) did not take the global executor over")
        }
    }

    private static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("bench: error: \(message)\n".utf8))
        exit(64)
    }
}
