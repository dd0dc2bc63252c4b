import SchedulerBench
import SchedulerConformance

#if NIO
    import SchedulerConformanceNIO
#endif
#if Combine
    import SchedulerConformanceCombine
#endif

// The project's own subjects by name, as the tool, its goals and its reports refer to them: each id is its catalog
// entry's, so the kit and the bench name one scheduler one way.

extension BackendID {
    package static let dispatch = ConformanceBackend.dispatchQueue.id
    package static let threadPool = ConformanceBackend.threadPool.id
    package static let operationQueue = ConformanceBackend.operationQueue.id
    package static let immediate = ConformanceBackend.immediate.id
    package static let subscription = ConformanceBackend.subscription.id
    package static let testScheduler = ConformanceBackend.testScheduler.id
    package static let concurrentDispatch = ConformanceBackend.concurrentDispatchQueue.id
    package static let threadPoolConcurrent = ConformanceBackend.threadPoolConcurrent.id
    package static let operationQueueConcurrent = ConformanceBackend.operationQueueConcurrent.id
}

#if NIO
    extension BackendID {
        package static let nioEventLoop = ConformanceBackend.eventLoop.id
        package static let nioThreadPool = ConformanceBackend.nioThreadPool.id
    }
#endif

#if Combine
    extension BackendID {
        package static let combineDispatch = ConformanceBackend.combineDispatchQueue.id
        package static let combineOperationQueue = ConformanceBackend.combineOperationQueue.id
        package static let combineRunLoop = ConformanceBackend.combineRunLoop.id
        package static let combineImmediate = ConformanceBackend.combineImmediate.id
    }
#endif
