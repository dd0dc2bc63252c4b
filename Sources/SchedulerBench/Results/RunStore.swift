import CBenchSystem
import Foundation
import ToolSupport

/// Where runs are kept: one folder per run under a results root, written whole or not at all.
///
/// A run's files are written into a hidden `.<run-id>.partial` folder, created exclusively (two runs never share
/// one), and renamed to `<run-id>` once every file is there, with a rename that refuses to replace an existing folder.
/// So a reader sees a run folder only when it is complete; an error or an interruption leaves at most the hidden
/// folder, which the interrupted process removes (`Interruption`).
package struct RunStore: Sendable {
    package let root: URL

    package init(root: String) { self.root = URL(fileURLWithPath: root, isDirectory: true) }

    /// Free space a run needs at the least (its CSV files take a few MiB).
    static let requiredBytes: UInt64 = 64 << 20

    /// Everything that can be checked before measuring: the root exists or can be made, is a folder, can be written
    /// to, and has space. Throws a one-line error saying what to do.
    package func preflight() throws {
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        if manager.fileExists(atPath: root.path, isDirectory: &isFolder) {
            guard isFolder.boolValue else {
                throw RequestError.unusableOutput(problem: "\(root.path) is a file, not a folder")
            }
        } else {
            do { try manager.createDirectory(at: root, withIntermediateDirectories: true) } catch {
                throw RequestError.unusableOutput(problem: "cannot create \(root.path) (\(Self.reason(error)))")
            }
        }
        let probe = root.appendingPathComponent(".write-test-\(getpid())-\(UInt32.random(in: 0 ... .max))")
        do {
            try Data().write(to: probe)
            try manager.removeItem(at: probe)
        } catch {
            throw RequestError.unusableOutput(problem: "\(root.path) is not writable (\(Self.reason(error)))")
        }
        var stats = statvfs()
        if statvfs(root.path, &stats) == 0 {
            let free = UInt64(stats.f_bavail) * UInt64(stats.f_frsize)
            guard free >= Self.requiredBytes else {
                throw BenchError.machine(
                    "only \(free >> 20) MiB free under \(root.path), a run needs \(Self.requiredBytes >> 20) MiB; free some space"
                )
            }
        }
    }

    /// Writes `files` as the run folder `<root>/<runID>`, whole or not at all; returns the folder.
    @discardableResult
    package func write(runID: String, files: [String: String]) throws -> URL {
        let folder = root.appendingPathComponent(runID, isDirectory: true)
        let partial = root.appendingPathComponent(".\(runID).partial", isDirectory: true)
        guard mkdir(partial.path, 0o755) == 0 else {
            throw BenchError.failed(
                errno == EEXIST
                    ? "another run is writing \(partial.path); runs never share a folder, start this one again"
                    : "cannot create \(partial.path): \(String(cString: strerror(errno))); check the output folder")
        }
        let registration = Interruption.removeOnInterrupt(partial)
        defer { Interruption.forget(registration) }
        do {
            for (name, text) in files.sorted(by: { $0.key < $1.key }) {
                try Data(text.utf8).write(to: partial.appendingPathComponent(name))
            }
            try Self.renameWithoutReplacing(partial, to: folder)
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
        return folder
    }

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

    /// Renames `from` to `to` unless `to` exists (then throws; nothing is replaced).
    static func renameWithoutReplacing(_ from: URL, to: URL) throws {
        let status = cbench_rename_noreplace(from.path, to.path)
        guard status == 0 else {
            throw BenchError.failed(
                status == -EEXIST
                    ? "\(to.path) already exists; results are never overwritten"
                    : "cannot move \(from.lastPathComponent) to \(to.path): \(String(cString: strerror(-status)))")
        }
    }

    static func reason(_ error: any Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let underlying, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return (error as NSError).localizedDescription
    }
}
