import NIOCore
import NIOPosix
import SchedulerConformance
import SchedulerKit
import SchedulerKitNIO

extension ConformanceBackend {
    /// The SwiftNIO adapters of SchedulerKitNIO, judged by the same rules as the built-in backends. Declared: only what
    /// NIO does not offer at all (cancelling `execute`d or submitted work, fixed-rate repeating). Where NIO offers a
    /// promise and keeps it differently, the rule runs and the matrix shows the outcome.
    public static let nio: [ConformanceBackend] = [eventLoop, nioThreadPool]

    /// Every check gets a `MultiThreadedEventLoopGroup` of one thread, shut down when the check ends; every scheduler
    /// of the check is an adapter on its loop.
    public static let eventLoop = ConformanceBackend(
        name: "EventLoopScheduler",
        traits: EventLoopScheduler.traits,
        declarations: [
            "C1":
                "EventLoop.execute has no cancellation: a plain task cannot be stopped before it starts, so its handle's cancel() returns false (truthfully) and the task runs. Delayed work (scheduleTask) can be cancelled; C2 races it.",
            "C4":
                "EventLoop.execute has no cancellation, so a plain task's closure and captures are released only after it ran. A cancelled scheduleTask is taken off the timer heap at once.",
            "T6":
                "scheduleRepeatedTask is fixed-delay: each tick is scheduled a full interval after the previous tick returned, so ticks drift by their own duration and a long tick pushes the rest back instead of being coalesced on a grid; NIO has no leeway. The adapter does not claim fixed-rate.",
        ],
        expectedFailures: [
            "C2":
                "Scheduled.cancel() cannot stop a delayed task that the loop has already taken off its timer heap into the batch it is running; the task runs although its cancel came first and nothing had started it (caught when a race hits that window).",
            "T3":
                "NIO keeps due delayed tasks in a timer heap beside its queue of execute()d tasks and runs the two interleaved, one of each in turn, so work due now or in the past overtakes (or falls behind) plain work scheduled around it.",
        ]
    ) {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        return ConformanceSession(
            makeScheduler: { EventLoopScheduler(name: "conformance", eventLoop: loop) },
            tearDown: { try? group.syncShutdownGracefully() }
        )
    }

    /// Every check gets a started `NIOThreadPool` of one thread (serial), shut down when the check ends; every
    /// scheduler of the check is an adapter on it.
    public static let nioThreadPool = ConformanceBackend(
        name: "NIOThreadPoolScheduler",
        traits: NIOThreadPoolScheduler.traits(threadCount: 1),
        declarations: [
            "C1":
                "NIOThreadPool.submit has no cancellation: a queued item cannot be stopped before it starts, so its handle's cancel() returns false (truthfully) and the item runs.",
            "C4":
                "NIOThreadPool.submit has no cancellation, so a queued item's closure and captures are released only after it ran (or was told .cancelled at shutdown).",
        ]
    ) {
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        return ConformanceSession(
            makeScheduler: { NIOThreadPoolScheduler(name: "conformance", pool: pool) },
            tearDown: { try? pool.syncShutdownGracefully() }
        )
    }
}
