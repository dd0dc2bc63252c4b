import Dispatch
import Foundation
import SchedulerKit
import Synchronization
import ToolSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Counts finished tasks down to zero and wakes the waiter once, when the last one finishes.
final class Countdown: Sendable {
    private let remaining: Atomic<Int>
    private let finished = DispatchSemaphore(value: 0)

    init(_ count: Int) {
        precondition(count > 0, "Countdown: count must be > 0, got \(count)")
        remaining = Atomic(count)
    }

    func tick() {
        if remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { finished.signal() }
    }

    func wait() { finished.wait() }
}

/// One slot per task; each slot is written by exactly one task and read only after every task has finished.
// @unchecked Sendable: slots are disjoint per writer, and the reader waits on a Countdown (a semaphore, so
// happens-before) before it reads; the buffer is freed by its owner after that.
final class SampleSlots: @unchecked Sendable {
    private let storage: UnsafeMutableBufferPointer<UInt64>

    init(count: Int) {
        storage = .allocate(capacity: count)
        storage.initialize(repeating: 0)
    }

    deinit { storage.deallocate() }

    func set(_ index: Int, _ value: UInt64) { storage[index] = value }
    var values: [UInt64] { Array(storage) }
}

/// A flag that load generators poll to know when to stop.
final class StopFlag: Sendable {
    private let stopped = Atomic<Bool>(false)
    func stop() { stopped.store(true, ordering: .releasing) }
    var isStopped: Bool { stopped.load(ordering: .acquiring) }
}

/// A gate that holds a serial lane: the first task blocks until ``open()``, so that work queued behind it waits.
final class LaneGate: Sendable {
    private let started = DispatchSemaphore(value: 0)
    private let release = DispatchSemaphore(value: 0)

    /// Submits the blocking task and returns once it runs, so the lane's worker is known to be held.
    func close(_ lane: any Lane) {
        lane.submit { [self] in
            started.signal()
            release.wait()
        }
        started.wait()
    }

    func open() { release.signal() }
}

enum Clock {
    static let cores = ProcessInfo.processInfo.activeProcessorCount
    /// Nanoseconds on the monotonic clock.
    @inline(__always) static func now() -> UInt64 { UInt64(SchedulerTime.monotonicNow().nanoseconds) }

    /// The median cost of one clock read, measured from back-to-back reads; subtracted from latency samples.
    /// Enough back-to-back reads that the median shrugs off the reads a preemption stretched (odd: one middle).
    static let overheadSamples = 20_001

    static func readOverhead(samples: Int = overheadSamples) -> Double {
        var gaps: [Double] = []
        gaps.reserveCapacity(samples)
        for _ in 0..<samples {
            let first = now()
            gaps.append(Double(now() &- first))
        }
        return Statistics.median(gaps)
    }

    /// Busy-waits for about `nanoseconds`: the body of a load task.
    static func spin(nanoseconds: UInt64) {
        let end = now() + nanoseconds
        while now() < end {}
    }
}

/// An atomic integer that escaping closures can share.
final class SharedCounter: Sendable {
    private let value: Atomic<Int>
    init(_ initial: Int) { value = Atomic(initial) }
    /// Subtracts one and returns the new value.
    func decrement() -> Int { value.subtract(1, ordering: .relaxed).newValue }
    func increment() { value.add(1, ordering: .relaxed) }
    var current: Int { value.load(ordering: .relaxed) }
}

/// CPU time (user + system) of the whole process, every thread included.
enum ProcessCPU {
    /// Nanoseconds of CPU the process has used so far.
    static func nanoseconds() -> UInt64 {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func ns(_ time: timeval) -> UInt64 { UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_usec) * 1_000 }
        return ns(usage.ru_utime) + ns(usage.ru_stime)
    }
}
