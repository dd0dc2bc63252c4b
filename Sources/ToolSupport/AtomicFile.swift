import Foundation

/// Writing a file so that a reader sees the old file or the whole new one, never a part: through a temporary file in
/// the same folder and a rename.
public enum AtomicFile {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public static func write(_ text: String, to url: URL) throws {
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
        do {
            try Data(text.utf8).write(to: temporary)
            if rename(temporary.path, url.path) != 0 {
                throw Failure(description: "cannot write \(url.path): \(String(cString: strerror(errno)))")
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }
}
