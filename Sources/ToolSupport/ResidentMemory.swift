import Foundation

/// Resident memory of this process, from /proc/self/status (Linux); nil where the system does not say.
public enum ResidentMemory {
    /// Current resident set size, in bytes.
    public static var current: UInt64? { field("VmRSS:") }
    /// Peak resident set size since start or since ``resetPeak()``, in bytes.
    public static var peak: UInt64? { field("VmHWM:") }

    /// Resets the peak to the current size (writing 5 to /proc/self/clear_refs); false where the kernel refuses.
    @discardableResult
    public static func resetPeak() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        return (try? handle.write(contentsOf: Data("5".utf8))) != nil
    }

    private static func field(_ name: String) -> UInt64? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name) }),
            let kilobytes = UInt64(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { return nil }
        return kilobytes * 1024
    }
}
