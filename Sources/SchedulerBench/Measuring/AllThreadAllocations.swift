import CJemalloc
import Dispatch
import Foundation

/// Allocation requests of every thread, as jemalloc's arenas count them, and the bytes of their size classes.
///
/// Exact only in a process whose thread caches are off (`MALLOC_CONF=tcache:false`): then every request of every
/// thread reaches an arena and is counted there at once. With caches on, arenas see cache refills instead.
/// Bytes are size-class bytes: a 100-byte request counts as its 112-byte class.
struct ArenaTotals: Sendable, Equatable {
    var allocations: UInt64
    var sizeClassBytes: UInt64

    /// The totals now (after an `epoch` refresh); nil when jemalloc is not live.
    static func read() -> ArenaTotals? {
        var allocations: UInt64 = 0
        var bytes: UInt64 = 0
        guard cjemalloc_arena_totals(&allocations, &bytes) == 0 else { return nil }
        return ArenaTotals(allocations: allocations, sizeClassBytes: bytes)
    }

    static func - (after: ArenaTotals, before: ArenaTotals) -> ArenaTotals {
        ArenaTotals(
            allocations: after.allocations &- before.allocations,
            sizeClassBytes: after.sizeClassBytes &- before.sizeClassBytes)
    }
}

/// Counting the allocations of all threads: possible only in a child process started with thread caches off.
enum AllThreadCounting {
    /// What makes the counts exact; the counting child's environment.
    static let mallocConf = "tcache:false"

    /// jemalloc is live and its thread caches are off for every thread (`opt.tcache` reads false).
    static var isExact: Bool {
        var tcache = true
        return Jemalloc.isLive && cjemalloc_read_bool("opt.tcache", &tcache) == 0 && !tcache
    }

    struct NotExact: Error, CustomStringConvertible {
        let description: String
    }

    /// Proves the counts exact here: `mallocs` requests of 64 bytes (a size class) on a second thread, already
    /// running, must move the totals by exactly `mallocs` allocations and `64 × mallocs` bytes. Returns one line.
    static func proveExact(mallocs: Int = 10_000) throws -> String {
        guard Jemalloc.isLive else { throw NotExact(description: "jemalloc is not live in the counting process") }
        guard isExact else {
            throw NotExact(
                description:
                    "opt.tcache is not false in the counting process (MALLOC_CONF=\(mallocConf) was not applied)")
        }
        let (ready, go, done) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let thread = Thread {
            ready.signal()
            go.wait()
            cjemalloc_malloc_and_free(64, mallocs)
            done.signal()
        }
        thread.start()
        ready.wait()
        guard let before = ArenaTotals.read() else {
            throw NotExact(description: "jemalloc's arena statistics cannot be read")
        }
        go.signal()
        done.wait()
        guard let after = ArenaTotals.read() else {
            throw NotExact(description: "jemalloc's arena statistics cannot be read")
        }
        let moved = after - before
        guard moved == ArenaTotals(allocations: UInt64(mallocs), sizeClassBytes: UInt64(64 * mallocs)) else {
            throw NotExact(
                description:
                    "\(mallocs) mallocs of 64 B on a second thread were counted as \(moved.allocations) allocations, \(moved.sizeClassBytes) B"
            )
        }
        return
            "opt.tcache=false; \(mallocs) mallocs of 64 B on a second thread counted as exactly \(moved.allocations) allocations, \(moved.sizeClassBytes) B"
    }
}
