#if NIO
    import Dispatch
    import NIOCore
    import NIOPosix
    import SchedulerKit
    import Synchronization

    /// A SwiftNIO `NIOThreadPool` as a ``ShutdownScheduler``. Thin, like ``EventLoopScheduler``: it adds the handle, the
    /// current scheduler and the shutdown call, nothing NIO does not do.
    ///
    /// - Work is `pool.submit`, run with `Schedulers.current === self`. The pool cannot cancel a submitted item, so the
    ///   handle's `cancel()` always returns false (C1 and C4 are declared). The pool hands every item its fate,
    ///   `.active` or `.cancelled`; a cancelled item does not run its work, and its handle then reports `isCancelled`.
    /// - Serial only on a pool of one thread (one FIFO queue, one worker), and the traits say so; with more threads,
    ///   items run concurrently and the scheduler claims neither serial nor anything that needs it.
    /// - Not timed: the pool has no timers.
    /// - ``shutdown()`` shuts the whole pool down (`shutdownGracefully`), and so every scheduler on it: queued items get
    ///   `.cancelled`, running items finish, later submissions get `.cancelled` at once. It waits until the pool's threads
    ///   have ended and the queued items have been told, except when called on one of the pool's threads (then it
    ///   returns at once; waiting there would wait for itself). A pool thread is known as one that has run an item of a
    ///   scheduler on this pool, whatever is current there (`Schedulers.immediate` inside a task, a raw `pool.submit`
    ///   item); a raw item on a thread that has never run one still waits. NIO offers no query of a pool's state, so
    ///   ``isShutDown`` says whether `shutdown()` was called on this scheduler or the pool has refused its work.
    /// - Pending work keeps the adapter alive and runs; releasing the adapter drops nothing. The pool is the caller's:
    ///   it must be started, and shut down before it is released (NIO asserts that).
    public final class NIOThreadPoolScheduler: ShutdownScheduler {
        public let name: String
        public let pool: NIOThreadPool
        /// Left when the pool has shut down; nil until `shutdown()` is called.
        private let stopped = Locked<DispatchGroup?>(nil)
        private let refusedByPool = Atomic<Bool>(false)

        public init(name: String = "nio-thread-pool", pool: NIOThreadPool) {
            self.name = name
            self.pool = pool
        }

        /// What a scheduler on a pool of `threadCount` threads promises: serial only with one thread.
        public static func traits(threadCount: Int) -> SchedulerTraits {
            let traits: SchedulerTraits = [.asynchronous, .shutdown, .setsCurrent, .sharedThreads]
            return threadCount == 1 ? traits.union(.serial) : traits
        }

        public var traits: SchedulerTraits { Self.traits(threadCount: pool.numberOfThreads) }

        @discardableResult
        public func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
            let handle = PoolWorkHandle()
            pool.submit { [self] state in
                switch state {
                case .active:
                    // How `shutdown()` knows a pool thread: a store into the thread's state, where a
                    // `ThreadSpecificVariable` costs some 100 instructions per item.
                    Schedulers.markThread(asOneOf: pool)
                    Schedulers.performAsCurrent(self, work)
                case .cancelled:
                    handle.markCancelledByPool()
                    refusedByPool.store(true, ordering: .releasing)
                }
            }
            return handle
        }

        public func shutdown() {
            // The first caller starts NIO's shutdown before it releases the lock, so no caller returns (e.g. one on a
            // pool thread, which does not wait) before the pool has stopped taking queued items.
            let stopped = self.stopped.withLock { group -> DispatchGroup in
                if let group { return group }
                let made = DispatchGroup()
                made.enter()
                group = made
                // A serial queue: NIO tells the queued items `.cancelled` on it before it calls back.
                pool.shutdownGracefully(queue: DispatchQueue(label: "\(name).shutdown")) { _ in made.leave() }
                return made
            }
            if !isOnPoolThread { stopped.wait() }
        }

        public var isShutDown: Bool {
            stopped.withLock { $0 != nil } || refusedByPool.load(ordering: .acquiring)
        }

        /// Whether this is one of the pool's own threads: one that has run an item of a scheduler on this pool. The
        /// mark's identity stays right: the pool's threads end before the pool is released.
        private var isOnPoolThread: Bool { Schedulers.isThread(oneOf: pool) }
    }
#endif
