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
    package static let dispatch = BackendID(ConformanceBackend.dispatchQueue)
    package static let threadPool = BackendID(ConformanceBackend.threadPool)
    package static let operationQueue = BackendID(ConformanceBackend.operationQueue)
    package static let immediate = BackendID(ConformanceBackend.immediate)
    package static let subscription = BackendID(ConformanceBackend.subscription)
    package static let testScheduler = BackendID(ConformanceBackend.testScheduler)
    package static let concurrentDispatch = BackendID(ConformanceBackend.concurrentDispatchQueue)
    package static let threadPoolConcurrent = BackendID(ConformanceBackend.threadPoolConcurrent)
    package static let operationQueueConcurrent = BackendID(ConformanceBackend.operationQueueConcurrent)
}

#if NIO
    extension BackendID {
        package static let nioEventLoop = BackendID(ConformanceBackend.eventLoop)
        package static let nioThreadPool = BackendID(ConformanceBackend.nioThreadPool)
    }
#endif

#if Combine
    extension BackendID {
        package static let combineDispatch = BackendID(ConformanceBackend.combineDispatchQueue)
        package static let combineOperationQueue = BackendID(ConformanceBackend.combineOperationQueue)
        package static let combineRunLoop = BackendID(ConformanceBackend.combineRunLoop)
        package static let combineImmediate = BackendID(ConformanceBackend.combineImmediate)
    }
#endif
