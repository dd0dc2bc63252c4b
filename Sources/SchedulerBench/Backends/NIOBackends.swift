#if NIO
    import NIOCore
    import NIOPosix
    import SchedulerKit

    // The primitive SwiftNIO's adapters wrap, as a reference lane: a fresh group of one loop per core each round, and lanes
    // take its loops in turn, as the `nio-eventloop` subject's do (`SchedulerConformanceNIO`).

    extension Backend {
        static let peerReferences: [Backend] = [rawNIOExecute]

        static let rawNIOExecute = Backend.reference(
            .rawNIOExecute,
            "EventLoop.execute (timers: scheduleTask(deadline:)) on a fresh MultiThreadedEventLoopGroup, one loop per core; "
                + "lanes take the loops in turn",
            capabilities: [.serial, .asynchronous, .realTimers, .promptWakeUp]
        ) {
            let group = MultiThreadedEventLoopGroup(numberOfThreads: Clock.cores)
            return LaneGroup(make: { _ in EventLoopLane(group.next()) }, close: { try? group.syncShutdownGracefully() })
        }
    }

    /// Raw `EventLoop.execute` and `scheduleTask(deadline:)`: the primitives ``EventLoopScheduler`` wraps.
    final class EventLoopLane: Lane {
        let loop: any EventLoop
        init(_ loop: any EventLoop) { self.loop = loop }
        var scheduler: (any Scheduler)? { nil }
        func submit(_ work: @escaping @Sendable () -> Void) { loop.execute(work) }
        func submit(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) {
            _ = loop.scheduleTask(deadline: .uptimeNanoseconds(UInt64(deadline.nanoseconds))) { work() }
        }
        func drain() {}
    }
#else
    extension Backend {
        static let peerReferences: [Backend] = []
    }
#endif
