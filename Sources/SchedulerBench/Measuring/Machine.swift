import CBenchSystem
import Foundation
import SchedulerKit

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

    /// Restricts every thread of this process that exists now to `cpus` (threads created later inherit it).
    public static func pin(to cpus: CPUSet) throws {
        guard let allowed = allowedCPUs() else { throw BenchError.machine("cannot read this process's CPU affinity") }
        guard cpus.isSubset(of: allowed) else { throw RequestError.cpusNotAllowed(requested: cpus, allowed: allowed) }
        let list = cpus.cpus.map(Int32.init)
        for thread in threadIDs() {
            let status = cbench_set_affinity(thread, list, Int32(list.count))
            // A thread that exited since the listing is no longer there to obey.
            guard status == 0 || status == -ESRCH else {
                throw BenchError.machine(
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

/// Context switches and CPU migrations of the whole process: what the kernel's scheduler did to a round.
///
/// Read from perf software counters opened on the main thread at ``start()`` and inherited by every thread created
/// after it (perf software events work in VMs that have no hardware counters). Where perf is refused, context
/// switches come from `getrusage` (every thread, exited ones included) and migrations are not known.
public enum SchedulingCounters {
    public struct Reading: Sendable {
        public var contextSwitches: UInt64
        public var migrations: UInt64?
    }

    private struct Descriptors {
        var contextSwitches: Int32 = -1
        var migrations: Int32 = -1
        var started = false
    }

    /// `Locked`, not `Mutex`, so that ThreadSanitizer sees the ordering (see `Locked`).
    private static let descriptors = Locked(Descriptors())

    /// Opens the counters; call before the threads to be counted exist. Returns where the figures come from.
    @discardableResult
    public static func start() -> String {
        descriptors.withLock { state in
            if !state.started {
                state.started = true
                state.contextSwitches = cbench_perf_open_software(cbench_perf_context_switches())
                state.migrations = cbench_perf_open_software(cbench_perf_cpu_migrations())
            }
            return state.contextSwitches >= 0 && state.migrations >= 0
                ? "perf software counters (context switches, CPU migrations) of every thread"
                : "getrusage (context switches only: perf_event_open was refused)"
        }
    }

    /// The counts so far; nil before ``start()``.
    public static func read() -> Reading? {
        let (switchesFD, migrationsFD, started) = descriptors.withLock {
            ($0.contextSwitches, $0.migrations, $0.started)
        }
        guard started else { return nil }
        var switches: UInt64 = 0
        var migrations: UInt64 = 0
        if switchesFD >= 0, cbench_perf_read(switchesFD, &switches) == 0 {
            let moved = migrationsFD >= 0 && cbench_perf_read(migrationsFD, &migrations) == 0
            return Reading(contextSwitches: switches, migrations: moved ? migrations : nil)
        }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Reading(contextSwitches: UInt64(usage.ru_nvcsw + usage.ru_nivcsw), migrations: nil)
    }
}
