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

    /// One thread serving its run loop per lane, so that two lanes (W4's ping and pong) are two threads.
    static let combineRunLoop = Backend.scheduler(
        .combineRunLoop,
        "Combine's RunLoop scheduler (OpenCombine), one thread serving its RunLoop per lane, in 1 ms slices "
            + "(RunLoop.perform does not wake a sleeping loop on Linux)",
        wraps: nil, traits: CombinePeers.runLoopTraits, lacking: .cancellation,
        conformanceName: "Combine RunLoop"
    ) {
        let threads = Mutex<[RunLoopThread]>([])
        return LaneGroup(
            make: { name in
                let thread = RunLoopThread(name: name)
                threads.withLock { $0.append(thread) }
                return SchedulerLane(CombinePeers.runLoop(name: name, thread: thread))
            },
            close: {
                for thread in threads.withLock({ $0 }) { thread.stop() }
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
