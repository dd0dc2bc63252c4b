import Foundation
import SchedulerExplorer
import SchedulerKit
import Synchronization

/// What a check gets: fresh schedulers of the backend under test, and ways to wait for them that also work on
/// virtual time (where waiting means driving the clock, since nothing runs otherwise).
public final class ConformanceContext: Sendable {
    public let backend: ConformanceBackend
    private let session: ConformanceSession
    /// What the check is doing, for a verdict of not finished; tells an abandoned check to stop.
    let watch: CheckWatch
    /// The trials an observed check ran in its rounds, and how long they may take (``observe(_:inRoundsOf:_:)``).
    let observed: ObservedTrials

    init(backend: ConformanceBackend, session: ConformanceSession, progress: CheckProgress) {
        self.backend = backend
        self.session = session
        self.watch = progress.watch
        self.observed = progress.observed
    }

    /// Records `trials` that the check ran at once, not in rounds (M1's programs), so that its pass counts what ran.
    func ran(_ trials: Int) { observed.ran(trials) }

    /// Runs `round` on consecutive ranges of at most `size` trials until `target` trials ran, a round throws, or half
    /// the rule's deadline is spent (``ObservedTrials/observe(_:inRoundsOf:_:)``). Returns the trials run.
    @discardableResult
    func observe(_ target: Int, inRoundsOf size: Int, _ round: (Range<Int>) throws -> Void) throws -> Int {
        try observed.observe(target, inRoundsOf: size, round)
    }

    /// Whether the backend must be called from one thread only (``SchedulerTraits/threadConfined``): the check's.
    var isThreadConfined: Bool { backend.traits.contains(.threadConfined) }

    /// A fresh scheduler of the backend (the same instance again for singletons such as `Schedulers.immediate`).
    public func makeScheduler() -> any Scheduler { session.makeScheduler() }

    /// A fresh scheduler as a ``TimedScheduler``; a backend that claims `.timed` and is not one fails the check.
    func makeTimedScheduler() throws -> any TimedScheduler {
        let scheduler = makeScheduler()
        guard let timed = scheduler as? any TimedScheduler else {
            throw RuleFailure("\(type(of: scheduler)) claims the timed trait but is not a TimedScheduler")
        }
        return timed
    }

    /// Polls `condition` until it holds, for at most `timeout` (generous: it bounds correctness, not speed).
    /// On a virtual-time scheduler each poll advances the clock by 1 ms instead of sleeping.
    /// Returns the real time it took; throws "`what` did not happen within …" otherwise.
    @discardableResult
    func waitUntil(
        _ what: @autoclosure () -> String, on scheduler: any Scheduler, timeout: Duration = .seconds(60),
        _ condition: () -> Bool
    ) throws -> Duration {
        let started = ContinuousClock.now
        let driver = scheduler as? any VirtualTimeDriver
        var polls = 0
        let maxPolls = Int(timeout.nanosecondsChecked() / 1_000_000)
        watch.beginWait(what())
        defer { watch.endWait() }
        while !condition() {
            try watch.stopIfAbandoned()
            if let driver {
                if polls >= maxPolls * 10 {
                    throw RuleFailure("\(what()) did not happen within \(maxPolls * 10) virtual ms")
                }
                watch.beginDriving(.advanceByOneMillisecond)
                driver.advance(by: .milliseconds(1))
                watch.endDriving()
            } else {
                if ContinuousClock.now - started > timeout {
                    throw RuleFailure("\(what()) did not happen within \(readable(timeout))")
                }
                sleepBriefly()
            }
            polls += 1
        }
        return ContinuousClock.now - started
    }

    /// Runs `body` while, on a virtual-time scheduler, a background thread keeps running whatever is due now,
    /// so checks written for real schedulers (producers racing the scheduler) also exercise virtual time. Never on a
    /// thread-confined scheduler: the rules that race threads do not apply to one.
    func whileDriven<R>(_ scheduler: any Scheduler, _ body: () throws -> R) rethrows -> R {
        guard let driver = scheduler as? any VirtualTimeDriver, !isThreadConfined else { return try body() }
        let stop = Atomic<Bool>(false)
        let stopped = DispatchSemaphore(value: 0)
        let watch = watch
        let thread = Thread {
            while !stop.load(ordering: .acquiring) && !watch.isAbandoned {
                watch.beginDriving(.advanceByZero)
                driver.advance(by: .zero)
                watch.endDriving()
            }
            stopped.signal()
        }
        thread.name = "conformance-driver"
        thread.start()
        defer {
            stop.store(true, ordering: .releasing)
            // A driver stuck inside advance never signals: the check's deadline gives the verdict, and this thread
            // stays behind with it rather than block the check's thread a second time.
            while stopped.wait(timeout: .now() + .milliseconds(100)) == .timedOut && !watch.isAbandoned {}
        }
        return try body()
    }
}

/// Schedules `body` as a task of `scheduler` and waits until it ran (driving virtual time); throws if it never did.
func runAsTask(
    _ context: ConformanceContext, on scheduler: any Scheduler, _ what: String,
    _ body: @escaping @Sendable () -> Void
) throws {
    let finished = Atomic<Bool>(false)
    scheduler.schedule {
        body()
        finished.store(true, ordering: .releasing)
    }
    try context.waitUntil(what, on: scheduler) { finished.load(ordering: .acquiring) }
}

extension ConformanceContext {
    /// Lets `duration` pass on the scheduler's clock: drives virtual time, sleeps on a real one.
    func letTimePass(_ duration: Duration, on scheduler: any Scheduler) {
        if let driver = scheduler as? any VirtualTimeDriver {
            driver.advance(by: duration)
        } else {
            usleep(UInt32(duration.nanosecondsChecked() / 1_000))
        }
    }
}
