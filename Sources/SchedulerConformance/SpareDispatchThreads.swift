import Dispatch
import Foundation

/// Idle threads in every pool of Dispatch's global queues, so that a forced round's second task finds a thread.
///
/// On Linux libdispatch grows a global queue's pool lazily: when its threads are blocked, a monitor adds one about once
/// a second. A rule that blocks a task and waits for a second one to start (S1, X1) must then wait over a second, or a
/// "serial" scheduler that is really the global queue passes whenever the process has taken that pool's threads. Once
/// a pool has run `count` blocks at once, it keeps those threads idle for a few seconds (a parked worker waits 5 s for
/// work before it exits), and a second task starts at once, unless other work of the process takes them first: so the
/// rounds still wait over the monitor's tick, and the warm-up makes sure a pool held for longer than that gets its
/// threads, or that the verdict says it did not.
enum SpareDispatchThreads {
    /// Every quality of service a global queue has (the overcommitting queues that serial queues target get a thread
    /// whenever they need one; these do not).
    private static let classes: [DispatchQoS.QoSClass] = [
        .background, .utility, .default, .userInitiated, .userInteractive,
    ]

    /// Runs `count` blocks at once on each global queue, each waiting for the others of its queue, for at most `limit`.
    /// Returns true when every queue ran them all at once: each pool then has `count` idle threads. Costs nothing
    /// worth measuring where the threads exist already; otherwise about a second per thread a pool has to add.
    static func ensure(_ count: Int = 2, within limit: Duration = .seconds(4)) -> Bool {
        let deadline = ContinuousClock.now + limit
        let arrived = classes.map { _ in Counter() }
        let together = classes.map { _ in Counter() }
        let group = DispatchGroup()
        for (index, qos) in classes.enumerated() {
            for _ in 0..<count {
                DispatchQueue.global(qos: qos).async(group: group) {
                    arrived[index].increment()
                    while arrived[index].value < count && ContinuousClock.now < deadline { usleep(100) }
                    if arrived[index].value >= count { together[index].increment() }
                }
            }
        }
        // Blocks that start after the deadline return at once; the group is not waited for past it.
        _ = group.wait(timeout: .now() + .nanoseconds(Int(limit.nanosecondsChecked())))
        return together.allSatisfy { $0.value == count }
    }

    /// The waits of the forced rounds in which a running task waits for a second one to start (S1, X1), and what
    /// their verdict must say when Dispatch's pools could not be given idle threads.
    struct ForcedRounds {
        let waits: [Duration]
        /// Nil when every pool had idle threads; else why the rounds' certainty is less.
        let caveat: String?
    }

    /// 1.5 s first (over the monitor's tick; the pool has grown by the second round) and 300 ms, after the pools
    /// were given idle threads; with a caveat where they could not be: a pool whose threads the process holds for
    /// longer gets no thread for a second task however long the round waits (measured: 2 sleeping blocks per pool in a
    /// test process). Not 300 ms after the warm-up: in a full parallel test run, other work took the idle threads
    /// between the warm-up and the round, and a global queue posing as serial passed (1 run).
    static func forcedRounds() -> ForcedRounds {
        let waits: [Duration] = [.milliseconds(1_500), .milliseconds(300)]
        if ensure() { return ForcedRounds(waits: waits, caveat: nil) }
        return ForcedRounds(
            waits: waits,
            caveat:
                "Dispatch's global pools had no 2 idle threads after 4 s (this process holds them): an overlap only through them may have found no thread"
        )
    }

    /// As above, for an `async` check (X1): the warm-up blocks a thread of its own, not one of the cooperative pool,
    /// which on Linux is one of the global queues' pools it is trying to give idle threads (blocking it there cost
    /// X1 about a second of the monitor's growth).
    static func forcedRounds() async -> ForcedRounds {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: forcedRounds()) }
        }
    }
}
