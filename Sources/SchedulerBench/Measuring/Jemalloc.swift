import CJemalloc
import Foundation

/// Which allocator a run measures under. Part of every result row: the allocator alone can triple the cost of a hop.
public enum AllocatorChoice: String, Sendable, CaseIterable {
    case jemalloc, system, both

    /// The allocators a run of this choice measures, in order.
    public var passes: [AllocatorChoice] { self == .both ? [.system, .jemalloc] : [self] }
}

/// What is known about jemalloc in this process, found at run time (so `swift test` never needs it).
enum Jemalloc {
    /// Where Debian and Ubuntu install the shared library (`libjemalloc-dev` / `libjemalloc2`).
    static let candidatePaths = [
        "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2",
        "/usr/lib/aarch64-linux-gnu/libjemalloc.so.2",
        "/lib/x86_64-linux-gnu/libjemalloc.so.2",
        "/usr/lib/libjemalloc.so.2",
        "/usr/local/lib/libjemalloc.so.2",
    ]

    /// The library to preload, if one is installed.
    static var installedLibrary: String? {
        candidatePaths.first { FileManager.default.fileExists(atPath: $0) }
    }

    /// True when this process allocates through jemalloc (its `mallctl` is visible).
    static var isLive: Bool { cjemalloc_find_mallctl() != nil }

    static var version: String? { cjemalloc_version().map { String(cString: $0) } }

    /// A request large enough that no thread cache serves it from bytes it counted before.
    static let proofBytes = 65_536

    /// Proof that malloc really is jemalloc: a 64 KiB allocation must move this thread's `thread.allocated` counter
    /// by at least that much. Returns a one-line description, or nil when jemalloc is not live.
    static func liveProof() -> String? {
        guard isLive else { return nil }
        let moved = cjemalloc_counted_bytes_of_malloc(proofBytes)
        var statsEnabled = false
        _ = cjemalloc_read_bool("config.stats", &statsEnabled)
        guard moved >= proofBytes else { return nil }
        return
            "jemalloc \(version ?? "?") is live: a 64 KiB malloc moved thread.allocated by \(moved) B; config.stats=\(statsEnabled)"
    }

    static func readU64(_ name: String) -> UInt64? {
        var value: UInt64 = 0
        return cjemalloc_read_u64(name, &value) == 0 ? value : nil
    }

    /// Small and large allocation requests served by the arenas (all arenas), after refreshing the statistics.
    static func arenaAllocationCount() -> UInt64? {
        guard cjemalloc_advance_epoch() == 0,
            let small = readU64("stats.arenas.4096.small.nmalloc"),
            let large = readU64("stats.arenas.4096.large.nmalloc")
        else { return nil }
        return small &+ large
    }

    /// Returns freed pages to the system, so that a following RSS reading starts from what is really in use.
    static func releaseFreeMemory() {
        if isLive { _ = cjemalloc_poke("arena.4096.purge") } else { cjemalloc_system_trim() }
    }
}

/// Counts the allocations and bytes that the calling thread makes while `body` runs.
///
/// Exact for the calling thread: its thread cache is switched off for the pass, so every request reaches an arena
/// and is counted there (jemalloc otherwise merges per-thread request counts lazily); bytes come from the thread's own
/// `thread.allocated` counter. Other threads should be idle (blocked behind a gate) while `body` runs, because the
/// arena counters are process-wide. Nil when jemalloc is not live.
struct AllocationCount: Sendable, Equatable {
    var allocations: UInt64
    var bytes: UInt64

    static func measure(_ body: () -> Void) -> AllocationCount? {
        guard Jemalloc.isLive, cjemalloc_write_bool("thread.tcache.enabled", false) == 0 else {
            body()
            return nil
        }
        defer { _ = cjemalloc_write_bool("thread.tcache.enabled", true) }
        guard let countBefore = Jemalloc.arenaAllocationCount(), let bytesBefore = Jemalloc.readU64("thread.allocated")
        else {
            body()
            return nil
        }
        body()
        guard let bytesAfter = Jemalloc.readU64("thread.allocated"), let countAfter = Jemalloc.arenaAllocationCount()
        else {
            return nil
        }
        return AllocationCount(allocations: countAfter &- countBefore, bytes: bytesAfter &- bytesBefore)
    }
}
