import Dispatch
import Foundation
import SchedulerKit
import SchedulerKitCombine
import Synchronization

// Combine's four schedulers (OpenCombine's on Linux) beside the SchedulerKit backends, through the adapter of
// SchedulerKitCombine (`CombineSchedulerAdapter`, traits from `CombinePeers`). None can cancel one-shot work, so
// none has the `cancellation` capability (W7 does not run on them).

extension Backend {
    static let combineDispatch = Backend.scheduler(
        .combineDispatch,
        "Combine's DispatchQueue scheduler (OpenCombine) on a private serial queue targeting the default global queue",
        wraps: .rawDispatchGlobal, traits: CombinePeers.dispatchQueueTraits, lacking: .cancellation,
        conformanceName: "Combine DispatchQueue"
    ) {
        LaneGroup {
            SchedulerLane(CombinePeers.dispatchQueue(name: $0, queue: DispatchQueue(label: $0, target: .global())))
        }
    }

    static let combineOperationQueue = Backend.scheduler(
        .combineOperationQueue,
        "Combine's OperationQueue scheduler (OpenCombine) on an OperationQueue with maxConcurrentOperationCount = 1",
        wraps: .rawOperationQueue, traits: CombinePeers.operationQueueTraits, lacking: .cancellation,
        conformanceName: "Combine OperationQueue"
    ) {
        LaneGroup { name in
            let queue = OperationQueue()
            queue.name = name
            queue.maxConcurrentOperationCount = 1
            return SchedulerLane(CombinePeers.operationQueue(name: name, queue: queue))
        }
    }

    /// One thread serving its run loop per core, and lanes take the threads in turn (as the NIO lanes take their event
    /// loops), so two lanes (W4's ping and pong) are two threads, and W3's 1 000 schedulers share the cores' threads
    /// as an app's run loops would, instead of being 1 000 threads waking every millisecond.
    static let combineRunLoop = Backend.scheduler(
        .combineRunLoop,
        "Combine's RunLoop scheduler (OpenCombine) on fresh threads serving their RunLoop in 1 ms slices, one per core; "
            + "lanes take the threads in turn (RunLoop.perform does not wake a sleeping loop on Linux)",
        wraps: nil, traits: CombinePeers.runLoopTraits, lacking: [.cancellation, .promptWakeUp],
        conformanceName: "Combine RunLoop"
    ) {
        let threads = (0..<Clock.cores).map { RunLoopThread(name: "bench-runloop-\($0)") }
        let next = Atomic<Int>(0)
        return LaneGroup(
            make: { name in
                let thread = threads[next.add(1, ordering: .relaxed).oldValue % threads.count]
                return SchedulerLane(CombinePeers.runLoop(name: name, thread: thread))
            },
            close: {
                for thread in threads { thread.stop() }
            })
    }

    /// Runs actions at once on the caller's stack, dates included: not given the `realTimers` capability, since a
    /// "timer" that fires at once would show a lateness of 0 on W6 (T1 in the matrix says what it does).
    static let combineImmediate = Backend.scheduler(
        .combineImmediate,
        "Combine's ImmediateScheduler (OpenCombine): runs every action at once, on the caller's stack",
        wraps: .directCall, traits: CombinePeers.immediateTraits, lacking: [.cancellation, .realTimers],
        conformanceName: "Combine ImmediateScheduler"
    ) {
        LaneGroup { SchedulerLane(CombinePeers.immediate(name: $0)) }
    }
}
