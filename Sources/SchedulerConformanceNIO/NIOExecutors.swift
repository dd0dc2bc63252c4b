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

#if NIO
    import NIOPosix
    import SchedulerConformance

    extension GlobalExecutorSubject {
        /// SwiftNIO's takeover of the global executor: every global job runs on the event loops of NIO's singleton
        /// group (one per core), through the runtime's global-enqueue hook.
        public static let nioTakeover = GlobalExecutorSubject(
            name: "NIO's global-executor takeover",
            summary:
                "NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor(): the singleton group's event loops",
            expectedFailures: [
                .ge6:
                    "by design: a job started on one of NIO's event loops stays on that loop (the takeover picks `MultiThreadedEventLoopGroup.singleton.any()`, which is sticky, to save a thread switch), so a job that blocks its loop strands the tasks it started; blocking an event loop is against NIO's own rules"
            ],
            isOwnThread: { MultiThreadedEventLoopGroup.currentEventLoop != nil }
        ) {
            NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        }

        /// The peers' global executors the kit judges.
        public static let nio: [GlobalExecutorSubject] = [nioTakeover]
    }
#endif
