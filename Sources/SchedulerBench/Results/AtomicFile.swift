import CBenchSystem
import Foundation

/// Writing files so that a reader sees the old file or the whole new one, never a part.
public enum AtomicFile {
    /// Writes `text` to `url` through a temporary file in the same folder and a rename.
    public static func write(_ text: String, to url: URL) throws {
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
        do {
            try Data(text.utf8).write(to: temporary)
            if rename(temporary.path, url.path) != 0 {
                throw BenchError("cannot write \(url.path): \(String(cString: strerror(errno)))")
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    /// Renames `from` to `to` unless `to` exists (then throws; nothing is replaced).
    public static func renameWithoutReplacing(_ from: URL, to: URL) throws {
        let status = cbench_rename_noreplace(from.path, to.path)
        guard status == 0 else {
            throw BenchError(status == -EEXIST
                ? "\(to.path) already exists; results are never overwritten"
                : "cannot move \(from.lastPathComponent) to \(to.path): \(String(cString: strerror(-status)))")
        }
    }
}
