#if NIO
    import Dispatch
    import NIOCore
    import NIOEmbedded
    import NIOPosix
    import SchedulerConformance

    extension ExecutorSubject {
        /// SwiftNIO's executors as subjects of the X rules: an event loop's `executor` (an actor's SerialExecutor that
        /// runs jobs on the loop's thread), on a fresh group of one loop per check, and the testing loop's.
        public static let nio: [ExecutorSubject] = [eventLoop, asyncTestingEventLoop]

        public static let eventLoop = ExecutorSubject(
            name: "NIO EventLoop.executor", summary: "SwiftNIO's executor of a MultiThreadedEventLoopGroup's loop"
        ) {
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            return ExecutorUnderTest(serial: group.next().executor) { try? group.syncShutdownGracefully() }
        }

        /// NIO's loop for tests: it has no thread of its own; work submitted from outside runs at once on its private
        /// queue, work submitted from inside runs before the loop lets go (`execute`'s "now").
        public static let asyncTestingEventLoop = ExecutorSubject(
            name: "NIOAsyncTestingEventLoop.executor",
            summary: "SwiftNIO's event loop for tests, as an actor's executor"
        ) {
            let loop = NIOAsyncTestingEventLoop()
            return ExecutorUnderTest(serial: loop.executor) { loop.shutdownGracefully(queue: .global()) { _ in } }
        }
    }
#endif
