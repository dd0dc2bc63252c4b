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

    /// Waits until the last tick or `timeout`; true if every tick came.
    func wait(timeout: DispatchTime) -> Bool { finished.wait(timeout: timeout) == .success }

    /// Ticks still to come.
    var remainingCount: Int { remaining.load(ordering: .acquiring) }
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

/// A gate that holds a lane's workers: blocking tasks that wait for ``open()``, so that work queued behind them waits.
///
/// A serial lane has one worker. A concurrent lane is held with one blocker per worker it can run at once, up to
/// the cores (the width the bench gives its concurrent subjects): with a worker left free, tasks run while the
/// producer still submits, and what the producer allocates (OperationQueue starts a worker block only while a slot
/// is free) depends on the timing; W9 counted 17.4 or 17.6 allocations per task from run to run that way.
final class LaneGate: Sendable {
    private let started = DispatchSemaphore(value: 0)
    private let release = DispatchSemaphore(value: 0)
    private let blockers = Atomic<Int>(0)

    /// How long a further blocker may take to start before the lane counts as full: a lane narrower than the cores
    /// never starts it. Generous, since a started blocker on a busy 2-core machine can take a slice to run.
    static let fullAfter: DispatchTimeInterval = .milliseconds(500)

    /// Submits one blocking task per worker (`workers`: 1 for a serial lane) and returns once every one that can
    /// start has, so the lane's workers are known to be held. The first blocker must start.
    func close(_ lane: any Lane, workers: Int = 1) {
        for index in 0..<max(1, workers) {
            blockers.add(1, ordering: .relaxed)
            lane.submit { [self] in
                started.signal()
                release.wait()
            }
            if index == 0 {
                started.wait()
            } else if started.wait(timeout: .now() + Self.fullAfter) == .timedOut {
                return  // the lane is full; this blocker runs once the gate opens
            }
        }
    }

    /// Releases every blocker, started or still queued.
    func open() {
        for _ in 0..<blockers.load(ordering: .relaxed) { release.signal() }
    }
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
