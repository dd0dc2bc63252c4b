#if NIO
    import Dispatch
    import NIOCore
    import NIOPosix
    import SchedulerKit
    import Synchronization

    /// Runs `body` with the one loop of a fresh one-thread group, and shuts the group down afterwards.
    func withEventLoop(_ body: (any EventLoop) throws -> Void) rethrows {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        try body(group.next())
    }

    /// Runs `body` with a fresh started `NIOThreadPool` of `threads` threads, and shuts it down afterwards.
    func withThreadPool(threads: Int = 1, _ body: (NIOThreadPool) throws -> Void) rethrows {
        let pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
        defer { try? pool.syncShutdownGracefully() }
        try body(pool)
    }
#endif
