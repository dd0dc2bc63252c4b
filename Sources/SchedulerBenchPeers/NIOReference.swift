#if NIO
    import NIOCore
    import NIOPosix
    import SchedulerBench
    import SchedulerConformance
    import SchedulerKit

    // The primitive SwiftNIO's adapters wrap, as a reference lane: a fresh group of one loop per core each round, and
    // lanes take its loops in turn, as the `nio-eventloop` subject's do (`SchedulerConformanceNIO`).

    extension PeerReferences {
        static let rawNIOExecute = Backend.reference(
            .rawNIOExecute,
            "EventLoop.execute (timers: scheduleTask(deadline:)) on a fresh MultiThreadedEventLoopGroup, one loop per core; "
                + "lanes take the loops in turn; actors on the loop's own executor (EventLoop.executor), tasks on the "
                + "least TaskExecutor over execute (NIO has none)",
            capabilities: [.serial, .asynchronous, .realTimers, .promptWakeUp, .executor, .taskExecutor]
        ) {
            let group = MultiThreadedEventLoopGroup(numberOfThreads: SessionPlan.activeProcessorCount)
            return LaneGroup(make: { _ in EventLoopLane(group.next()) }, close: { try? group.syncShutdownGracefully() })
        }
    }

    /// Raw `EventLoop.execute` and `scheduleTask(deadline:)`: the primitives `EventLoopScheduler` wraps.
    final class EventLoopLane: Lane {
        let loop: any EventLoop
        init(_ loop: any EventLoop) { self.loop = loop }
        var scheduler: (any Scheduler)? { nil }
        var serialExecutor: (any SerialExecutor)? { loop.executor }
        var taskExecutor: (any TaskExecutor)? { EventLoopTaskExecutor(loop) }
        func submit(_ work: @escaping @Sendable () -> Void) { loop.execute(work) }
        func submit(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) {
            _ = loop.scheduleTask(deadline: .uptimeNanoseconds(UInt64(deadline.nanoseconds))) { work() }
        }
        func drain() {}
    }

    /// The least a task executor over an event loop can be: each job is one `execute`, run as a job of this executor.
    final class EventLoopTaskExecutor: TaskExecutor {
        let loop: any EventLoop
        init(_ loop: any EventLoop) { self.loop = loop }

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
        }

        func asUnownedTaskExecutor() -> UnownedTaskExecutor { UnownedTaskExecutor(ordinary: self) }
    }
#endif
