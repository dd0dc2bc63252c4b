import Foundation
import SchedulerBench
import ToolSupport

/// The run folders the tool reads back: those a run wrote whole under a results root.
extension RunStore {
    /// The complete run folders directly under the root (those with a `summary.csv`), oldest first: run ids start
    /// with their UTC start time.
    package func runs() -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { root.appendingPathComponent($0, isDirectory: true) }
            .filter { FileManager.default.fileExists(atPath: $0.appendingPathComponent("summary.csv").path) }
    }

    /// A run folder or its `summary.csv`, as a person names it, to the summary file.
    package static func summaryFile(_ path: String) throws -> String {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw BenchError.input("\(path) does not exist; name a run folder (Results/<run-id>) or its summary.csv")
        }
        return isFolder.boolValue ? (path as NSString).appendingPathComponent("summary.csv") : path
    }
}
