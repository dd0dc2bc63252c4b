import CBenchSystem
import Foundation

/// A set of CPU numbers, written as Linux writes them ("0-3,8").
public struct CPUSet: Sendable, Hashable, CustomStringConvertible {
    /// Ascending, without repeats.
    public let cpus: [Int]

    public init(_ cpus: some Sequence<Int>) { self.cpus = Array(Set(cpus)).sorted() }

    /// Parses "0", "0,1" or "0-3,8"; nil for anything else (an empty list included).
    public init?(parsing text: String) {
        var cpus: [Int] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let bounds = part.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map { Int($0) }
            guard let low = bounds.first ?? nil, low >= 0 else { return nil }
            let high = bounds.count == 2 ? bounds[1] : low
            guard let high, high >= low, high < Machine.maximumCPUs else { return nil }
            cpus += low...high
        }
        guard !cpus.isEmpty else { return nil }
        self.init(cpus)
    }

    public var description: String {
        var ranges: [String] = []
        var index = cpus.startIndex
        while index < cpus.endIndex {
            var end = index
            while end + 1 < cpus.endIndex && cpus[end + 1] == cpus[end] + 1 { end += 1 }
            ranges.append(end == index ? "\(cpus[index])" : "\(cpus[index])-\(cpus[end])")
            index = end + 1
        }
        return ranges.joined(separator: ",")
    }

    public func isSubset(of other: CPUSet) -> Bool { Set(cpus).isSubset(of: other.cpus) }
}

/// Where this process may run. `bench run --cpus` restricts it before any Dispatch, NIO or pool thread exists; a
/// thread inherits the affinity of the thread that creates it, so every thread of the run obeys it.
public enum Machine {
    static let maximumCPUs = 1024

    /// The CPUs the calling thread may run on.
    public static func allowedCPUs(thread: Int32 = 0) -> CPUSet? {
        var buffer = [Int32](repeating: 0, count: maximumCPUs)
        let count = cbench_get_affinity(thread, &buffer, Int32(buffer.count))
        return count > 0 ? CPUSet(buffer.prefix(Int(count)).map(Int.init)) : nil
    }

    /// Why this process cannot be restricted to the CPUs asked for: one line that says so.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Restricts every thread of this process that exists now to `cpus` (threads created later inherit it).
    public static func pin(to cpus: CPUSet) throws {
        guard let allowed = allowedCPUs() else { throw Failure(description: "cannot read this process's CPU affinity") }
        guard cpus.isSubset(of: allowed) else {
            throw Failure(
                description: "CPUs \(cpus): this process may run only on CPUs \(allowed); pick a subset of them")
        }
        let list = cpus.cpus.map(Int32.init)
        for thread in threadIDs() {
            let status = cbench_set_affinity(thread, list, Int32(list.count))
            // A thread that exited since the listing is no longer there to obey.
            guard status == 0 || status == -ESRCH else {
                throw Failure(
                    description:
                        "cannot restrict thread \(thread) to CPUs \(cpus): \(String(cString: strerror(-status)))")
            }
        }
    }

    /// Threads of this process that may run outside `cpus`, by name: empty when every thread obeys.
    public static func threadsOutside(_ cpus: CPUSet) -> [String] {
        threadIDs().compactMap { thread in
            guard let allowed = allowedCPUs(thread: thread), !allowed.isSubset(of: cpus) else { return nil }
            let name = (try? String(contentsOfFile: "/proc/self/task/\(thread)/comm", encoding: .utf8)) ?? "?"
            return "\(name.trimmingCharacters(in: .whitespacesAndNewlines)) (\(thread)) on \(allowed)"
        }
    }

    static func threadIDs() -> [Int32] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []).compactMap { Int32($0) }
    }
}
