import CBenchSystem
import Foundation

/// Where runs are kept: one folder per run under a results root, written whole or not at all.
///
/// A run's files are written into a hidden `.<run-id>.partial` folder, created exclusively (two runs never share
/// one), and renamed to `<run-id>` once every file is there, with a rename that refuses to replace an existing folder.
/// So a reader sees a run folder only when it is complete; an error or an interruption leaves at most the hidden
/// folder, which the interrupted process removes (`Interruption`).
public struct RunStore: Sendable {
    public let root: URL

    /// Why a run cannot be written here, in one line that says what to do.
    public enum Failure: Error, CustomStringConvertible {
        /// The root cannot take a run (`problem` says why); a request names the setting that chose the root.
        case unusable(problem: String)
        /// This machine lacks what a run needs (free space).
        case machine(String)
        /// Writing the run failed part-way; nothing half-written was kept.
        case failed(String)

        public var description: String {
            switch self {
            case .unusable(let line), .machine(let line), .failed(let line): line
            }
        }
    }

    public init(root: String) { self.root = URL(fileURLWithPath: root, isDirectory: true) }

    /// Free space a run needs at the least (its CSV files take a few MiB).
    static let requiredBytes: UInt64 = 64 << 20

    /// Everything that can be checked before measuring: the root exists or can be made, is a folder, can be written
    /// to, and has space. Throws a one-line error saying what to do.
    public func preflight() throws {
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        if manager.fileExists(atPath: root.path, isDirectory: &isFolder) {
            guard isFolder.boolValue else {
                throw Failure.unusable(problem: "\(root.path) is a file, not a folder")
            }
        } else {
            do { try manager.createDirectory(at: root, withIntermediateDirectories: true) } catch {
                throw Failure.unusable(problem: "cannot create \(root.path) (\(Self.reason(error)))")
            }
        }
        let probe = root.appendingPathComponent(".write-test-\(getpid())-\(UInt32.random(in: 0 ... .max))")
        do {
            try Data().write(to: probe)
            try manager.removeItem(at: probe)
        } catch {
            throw Failure.unusable(problem: "\(root.path) is not writable (\(Self.reason(error)))")
        }
        var stats = statvfs()
        if statvfs(root.path, &stats) == 0 {
            let free = UInt64(stats.f_bavail) * UInt64(stats.f_frsize)
            guard free >= Self.requiredBytes else {
                throw Failure.machine(
                    "only \(free >> 20) MiB free under \(root.path), a run needs \(Self.requiredBytes >> 20) MiB; free some space"
                )
            }
        }
    }

    /// Writes `files` as the run folder `<root>/<runID>`, whole or not at all; returns the folder.
    @discardableResult
    public func write(runID: String, files: [String: String]) throws -> URL {
        let folder = root.appendingPathComponent(runID, isDirectory: true)
        let partial = root.appendingPathComponent(".\(runID).partial", isDirectory: true)
        guard mkdir(partial.path, 0o755) == 0 else {
            throw Failure.failed(
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

    /// Renames `from` to `to` unless `to` exists (then throws; nothing is replaced).
    static func renameWithoutReplacing(_ from: URL, to: URL) throws {
        let status = cbench_rename_noreplace(from.path, to.path)
        guard status == 0 else {
            throw Failure.failed(
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
