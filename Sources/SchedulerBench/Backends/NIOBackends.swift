import NIOCore
import NIOPosix
import SchedulerKit
import SchedulerKitNIO
import Synchronization

// SwiftNIO beside the SchedulerKit backends. Each round gets a fresh NIO instance shaped like the thread pool's
// (one thread per core), and lanes take its threads in turn, so two lanes (W4's ping and pong) are two threads and a
// hop between them is a real hand-off, as it is on every other asynchronous backend.

extension Backend {
    static let nioEventLoop = Backend.scheduler(
        .nioEventLoop,
        "EventLoopScheduler (SchedulerKitNIO) on a fresh MultiThreadedEventLoopGroup, one loop per core; lanes take the loops in turn",
        wraps: .rawNIOExecute, traits: EventLoopScheduler.traits, lacking: .cancellation,
        conformanceName: "EventLoopScheduler"
    ) {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: Clock.cores)
        return LaneGroup(
            make: { SchedulerLane(EventLoopScheduler(name: $0, eventLoop: group.next())) },
            close: { try? group.syncShutdownGracefully() })
    }

    static let nioThreadPool = Backend.scheduler(
        .nioThreadPool,
        "NIOThreadPoolScheduler (SchedulerKitNIO) on fresh one-thread NIOThreadPools (serial), one per core; lanes take the pools in turn",
        wraps: nil, traits: NIOThreadPoolScheduler.traits(threadCount: 1), lacking: .cancellation,
        conformanceName: "NIOThreadPoolScheduler"
    ) {
        let pools = (0..<Clock.cores).map { _ in NIOThreadPool(numberOfThreads: 1) }
        for pool in pools { pool.start() }
        let next = Atomic<Int>(0)
        return LaneGroup(
            make: { name in
                let pool = pools[next.add(1, ordering: .relaxed).oldValue % pools.count]
                return SchedulerLane(NIOThreadPoolScheduler(name: name, pool: pool))
            },
            close: {
                for pool in pools { try? pool.syncShutdownGracefully() }
            })
    }

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
