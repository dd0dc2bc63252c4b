#if NIO
    import NIOCore
    import NIOPosix
    import SchedulerConformance
    import SchedulerKit
    import SchedulerKitNIO
    import Synchronization

    extension ConformanceBackend {
        /// The SwiftNIO adapters of SchedulerKitNIO, judged by the same rules as the built-in backends. Declared: only what
        /// NIO does not offer at all (cancelling `execute`d or submitted work, fixed-rate repeating). Where NIO offers a
        /// promise and keeps it differently, the rule runs and the matrix shows the outcome.
        public static let nio: [ConformanceBackend] = [eventLoop, nioThreadPool]

        /// Every check gets a `MultiThreadedEventLoopGroup` of one thread, shut down when the check ends; every scheduler
        /// of the check is an adapter on its loop. The bench's group has a loop per core, and its lanes take them in turn,
        /// so two lanes (W4's ping and pong) are two threads and a hop between them is a real hand-off.
        public static let eventLoop = ConformanceBackend(
            id: "nio-eventloop", name: "EventLoopScheduler",
            summary: "EventLoopScheduler (SchedulerKitNIO) on a fresh MultiThreadedEventLoopGroup, one loop per core; "
                + "lanes take the loops in turn",
            traits: EventLoopScheduler.traits,
            declarations: [
                .c1:
                    "EventLoop.execute has no cancellation: a plain task cannot be stopped before it starts, so its handle's cancel() returns false (truthfully) and the task runs. Delayed work (scheduleTask) can be cancelled; C2 races it.",
                .c4:
                    "EventLoop.execute has no cancellation, so a plain task's closure and captures are released only after it ran. A cancelled scheduleTask is taken off the timer heap at once.",
                .t6:
                    "scheduleRepeatedTask is fixed-delay: each tick is scheduled a full interval after the previous tick returned, so ticks drift by their own duration and a long tick pushes the rest back instead of being coalesced on a grid; NIO has no leeway. The adapter does not claim fixed-rate.",
            ],
            expectedFailures: [
                .t3:
                    "NIO keeps due delayed tasks in a timer heap beside its queue of execute()d tasks and runs the two interleaved, one of each in turn, so work due now or in the past overtakes (or falls behind) plain work scheduled around it."
            ]
        ) { plan in
            let group = MultiThreadedEventLoopGroup(numberOfThreads: plan.choose(conformance: 1, benchmark: plan.cores))
            return ConformanceSession(
                makeNamedScheduler: { EventLoopScheduler(name: $0, eventLoop: group.next()) },
                tearDown: { try? group.syncShutdownGracefully() }
            )
        }

        /// Every check gets a started `NIOThreadPool` of one thread (serial), shut down when the check ends; every
        /// scheduler of the check is an adapter on it. The bench gets one such pool per core, and its lanes take them in turn.
        public static let nioThreadPool = ConformanceBackend(
            id: "nio-threadpool", name: "NIOThreadPoolScheduler",
            summary:
                "NIOThreadPoolScheduler (SchedulerKitNIO) on fresh one-thread NIOThreadPools (serial), one per core; "
                + "lanes take the pools in turn",
            traits: NIOThreadPoolScheduler.traits(threadCount: 1),
            declarations: [
                .c1:
                    "NIOThreadPool.submit has no cancellation: a queued item cannot be stopped before it starts, so its handle's cancel() returns false (truthfully) and the item runs.",
                .c4:
                    "NIOThreadPool.submit has no cancellation, so a queued item's closure and captures are released only after it ran (or was told .cancelled at shutdown).",
            ]
        ) { plan in
            let pools = (0..<plan.choose(conformance: 1, benchmark: plan.cores)).map { _ in
                NIOThreadPool(numberOfThreads: 1)
            }
            for pool in pools { pool.start() }
            let next = Atomic<Int>(0)
            return ConformanceSession(
                makeNamedScheduler: { name in
                    NIOThreadPoolScheduler(
                        name: name, pool: pools[next.add(1, ordering: .relaxed).oldValue % pools.count])
                },
                tearDown: {
                    for pool in pools { try? pool.syncShutdownGracefully() }
                }
            )
        }
    }
#endif
