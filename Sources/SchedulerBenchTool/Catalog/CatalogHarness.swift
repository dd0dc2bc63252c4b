import SchedulerBench
import SchedulerBenchPeers
import SchedulerConformance

#if NIO
    import SchedulerConformanceNIO
#endif
#if Combine
    import SchedulerConformanceCombine
#endif

extension BenchHarness {
    /// The harness of a catalog entry: what the project's own entries are measured beside, and the few that the
    /// bench calls differently; standard for any other.
    package static func of(_ entry: ConformanceBackend) -> BenchHarness {
        switch entry.id {
        case ConformanceBackend.immediate.id: BenchHarness(wraps: .directCall)
        // Inline under a current scheduler, but the bench calls it from threads with none, where it always hands
        // work to its background scheduler: asynchronous there.
        case ConformanceBackend.subscription.id: BenchHarness(extraTraits: .asynchronous, wraps: .rawDispatch)
        case ConformanceBackend.dispatchQueue.id, ConformanceBackend.threadPool.id: BenchHarness(wraps: .rawDispatch)
        case ConformanceBackend.operationQueue.id: BenchHarness(wraps: .rawOperationQueue)
        case ConformanceBackend.concurrentDispatchQueue.id, ConformanceBackend.threadPoolConcurrent.id,
            ConformanceBackend.operationQueueConcurrent.id:
            BenchHarness(wraps: .rawDispatchConcurrent)
        // The bench's main thread does not serve the main queue while it measures.
        case ConformanceBackend.mainThread.id: BenchHarness(measured: false)
        // A queue shared with the caller measures the caller as much as the scheduler.
        case ConformanceBackend.callerOwnedOperationQueue.id: BenchHarness(measured: false)
        #if NIO
            case ConformanceBackend.eventLoop.id: BenchHarness(wraps: .rawNIOExecute)
        #endif
        #if Combine
            case ConformanceBackend.combineDispatchQueue.id: BenchHarness(wraps: .rawDispatchGlobal)
            case ConformanceBackend.combineOperationQueue.id: BenchHarness(wraps: .rawOperationQueue)
            case ConformanceBackend.combineImmediate.id: BenchHarness(wraps: .directCall)
            case ConformanceBackend.combineRunLoop.id: BenchHarness(wakesPromptly: false)
        #endif
        default: .standard
        }
    }
}
