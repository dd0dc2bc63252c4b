#if NIO
    import NIOCore
    import NIOPosix
    import SchedulerConformance

    extension ExecutorSubject {
        /// SwiftNIO's executors as subjects of the X rules: an event loop's `executor` (an actor's SerialExecutor that
        /// runs jobs on the loop's thread), on a fresh group of one loop per check.
        public static let nio: [ExecutorSubject] = [eventLoop]

        public static let eventLoop = ExecutorSubject(
            name: "NIO EventLoop.executor", summary: "SwiftNIO's executor of a MultiThreadedEventLoopGroup's loop"
        ) {
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            return ExecutorUnderTest(serial: group.next().executor) { try? group.syncShutdownGracefully() }
        }
    }
#endif
