import Foundation
import SchedulerBench
import SchedulerKit
import ToolSupport

extension RunSession {
    /// `--allocator both`: checks both allocators first, runs one child per allocator with a shared run id, then
    /// writes their rows together as one run folder.
    package static func performBoth(
        _ request: RunRequest, launcher: any ChildLauncher, commandLine: String,
        log: (String) -> Void
    ) throws -> (URL, RunResults) {
        try request.preflight()
        let runID =
            request.runID
            ?? RunID.make(commit: (try? Command.output("git", ["rev-parse", "--short=12", "HEAD"])) ?? "unknown")
        let scratch = try ScratchFolder("allocators")
        defer { scratch.remove() }
        let pass = Locked("")
        Interruption.install { "during the \(pass.withLock { $0 }) pass; nothing was written, the run is discarded" }
        var summaries: [SummaryRow] = []
        var samples: [String] = []
        for allocator in AllocatorChoice.both.passes {
            var child = request
            child.allocator = allocator
            child.outputDirectory = scratch.url.path
            child.runID = runID
            pass.withLock { $0 = allocator.rawValue }
            log("allocator pass: \(allocator.rawValue)")
            do {
                try ChildProcess.run(
                    .run(child), launcher: launcher, environment: Relaunch.childEnvironment(commandLine: commandLine))
            } catch {
                throw BenchError.failed("the \(allocator.rawValue) pass failed (\(error)); nothing was written")
            }
            let folder = scratch.url.appendingPathComponent(runID)
            summaries += try SummaryRow.read(folder.appendingPathComponent("summary.csv").path)
            samples.append(try String(contentsOf: folder.appendingPathComponent("samples.csv"), encoding: .utf8))
            try FileManager.default.removeItem(at: folder)
        }
        let results = RunResults(summary: summaries)
        let files = [
            "summary.csv": CSV.encode([SummaryRow.columns] + summaries.map(\.fields)),
            "samples.csv": try CSV.concatenate(samples),
        ]
        return (try RunStore(root: request.resultsRoot).write(runID: runID, files: files), results)
    }
}
