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

    /// Runs `body` with a fresh started one-thread `NIOThreadPool`; when `body` returns false (a check found the
    /// pool's thread blocked for good), the pool is kept, not shut down: shutting it down would wait for that thread
    /// forever, and releasing it unshut trips NIO's assertion. The test then fails instead of hanging.
    func withThreadPoolThatMayBlock(_ body: (NIOThreadPool) -> Bool) {
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        if body(pool) {
            try? pool.syncShutdownGracefully()
        } else {
            blockedPools.withLock { $0.append(pool) }
        }
    }

    private let blockedPools = Mutex<[NIOThreadPool]>([])
#endif
