#if Combine
    import Dispatch
    import Foundation
    import SchedulerKit

    #if canImport(Combine)
        import Combine

        /// Combine's scheduler for a `DispatchQueue`.
        public typealias CombineDispatchQueue = DispatchQueue
        /// Combine's scheduler for an `OperationQueue`.
        public typealias CombineOperationQueue = OperationQueue
        /// Combine's scheduler for a `RunLoop`.
        public typealias CombineRunLoop = RunLoop
        /// Combine's scheduler that runs actions at once, on the caller's stack.
        public typealias CombineImmediateScheduler = Combine.ImmediateScheduler
    #else
        import OpenCombine
        import OpenCombineDispatch
        import OpenCombineFoundation

        /// Combine's scheduler for a `DispatchQueue` (OpenCombine's `DispatchQueue.OCombine`).
        public typealias CombineDispatchQueue = DispatchQueue.OCombine
        /// Combine's scheduler for an `OperationQueue` (OpenCombine's `OperationQueue.OCombine`).
        public typealias CombineOperationQueue = OperationQueue.OCombine
        /// Combine's scheduler for a `RunLoop` (OpenCombine's `RunLoop.OCombine`).
        public typealias CombineRunLoop = RunLoop.OCombine
        /// Combine's scheduler that runs actions at once, on the caller's stack.
        public typealias CombineImmediateScheduler = OpenCombine.ImmediateScheduler
    #endif

    /// Combine's own four schedulers as SchedulerKit schedulers, with the traits each one's documentation and source
    /// promise. The adapter claims what the Combine scheduler offers through its API (every one of them accepts delayed
    /// and repeating work); the conformance matrix then shows, rule by rule, whether it keeps it.
    public enum CombinePeers {
        /// A serial `DispatchQueue` through Combine: FIFO on one queue, asynchronous, Dispatch's timers (monotonic).
        public static let dispatchQueueTraits: SchedulerTraits = [
            .serial, .asynchronous, .timed, .repeating, .fixedRate, .setsCurrent, .sharedThreads,
        ]
        /// An `OperationQueue` with `maxConcurrentOperationCount = 1` through Combine: one operation at a time; delayed
        /// work is an operation that becomes ready at its date (on the wall clock), repeating work one that re-arms.
        public static let operationQueueTraits: SchedulerTraits = [
            .serial, .asynchronous, .timed, .repeating, .fixedRate, .setsCurrent, .sharedThreads,
        ]
        /// A `RunLoop` served by one thread through Combine: `perform` blocks and `Timer`s (wall clock).
        public static let runLoopTraits: SchedulerTraits = [
            .serial, .asynchronous, .timed, .repeating, .fixedRate, .setsCurrent,
        ]
        /// Combine's `ImmediateScheduler`: runs every action at once on the caller's stack, whatever its date. Its API
        /// takes dates, so the adapter claims `timed`, as a user who calls it would assume. Not serial: two threads
        /// that schedule on it run their actions at the same time. Not repeating: OpenCombine runs a repeating action
        /// once and returns an empty cancellable.
        public static let immediateTraits: SchedulerTraits = [.timed, .setsCurrent]

        public static func dispatchQueue(name: String, queue: DispatchQueue) -> CombineSchedulerAdapter<
            CombineDispatchQueue
        > {
            #if canImport(Combine)
                CombineSchedulerAdapter(name: name, base: queue, traits: dispatchQueueTraits)
            #else
                CombineSchedulerAdapter(name: name, base: queue.ocombine, traits: dispatchQueueTraits)
            #endif
        }

        /// `queue` should run one operation at a time (the traits say serial).
        public static func operationQueue(name: String, queue: OperationQueue)
            -> CombineSchedulerAdapter<CombineOperationQueue>
        {
            #if canImport(Combine)
                CombineSchedulerAdapter(name: name, base: queue, traits: operationQueueTraits)
            #else
                CombineSchedulerAdapter(name: name, base: queue.ocombine, traits: operationQueueTraits)
            #endif
        }

        public static func runLoop(name: String, thread: RunLoopThread) -> CombineSchedulerAdapter<CombineRunLoop> {
            #if canImport(Combine)
                CombineSchedulerAdapter(name: name, base: thread.runLoop, traits: runLoopTraits)
            #else
                CombineSchedulerAdapter(name: name, base: thread.runLoop.ocombine, traits: runLoopTraits)
            #endif
        }

        public static func immediate(name: String) -> CombineSchedulerAdapter<CombineImmediateScheduler> {
            CombineSchedulerAdapter(name: name, base: CombineImmediateScheduler.shared, traits: immediateTraits)
        }
    }
#endif
