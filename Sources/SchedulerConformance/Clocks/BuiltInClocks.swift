import SchedulerExplorer
import SchedulerKit

extension ClockSubject {
    /// The clocks the kit judges in `bench conformance` and in its own tests: the standard library's, and a
    /// `SchedulerClock` over a real and a virtual scheduler.
    public static var builtIn: [ClockSubject] {
        [
            ClockSubject(
                name: "ContinuousClock", summary: "the standard library's monotonic clock, counting while asleep"
            ) {
                ClockUnderTest(ContinuousClock())
            },
            ClockSubject(
                name: "SuspendingClock", summary: "the standard library's clock that stops while the machine sleeps"
            ) {
                ClockUnderTest(SuspendingClock())
            },
            ClockSubject(
                name: "SchedulerClock(ThreadPool)", summary: "SchedulerClock over a ThreadPoolScheduler's timers"
            ) {
                let pool = ThreadPool(threadCount: 2, name: "clock")
                return ClockUnderTest(SchedulerClock(pool.makeScheduler(name: "clock")), shutDown: pool.shutdown)
            },
            ClockSubject(
                name: "SchedulerClock(Dispatch)", summary: "SchedulerClock over a DispatchQueueScheduler's timers"
            ) {
                ClockUnderTest(SchedulerClock(DispatchQueueScheduler(name: "clock")))
            },
            ClockSubject(
                name: "SchedulerClock(TestScheduler)",
                summary: "SchedulerClock over virtual time, driven by advance(by:)"
            ) {
                let scheduler = TestScheduler(name: "clock")
                return ClockUnderTest(SchedulerClock(scheduler), driver: .virtualTime(scheduler))
            },
        ]
            + [ExplorationStrategy.firstInFirstOut, .random].map { strategy in
                ClockSubject(
                    name: "SchedulerClock(ExploringScheduler, \(strategy))",
                    summary: "SchedulerClock over an exploring scheduler's virtual time, driven by advance(by:)",
                    declarations: strategy == .random ? [.cl4: ExecutorSubject.exploringReorders] : [:]
                ) {
                    let scheduler = ExploringScheduler(name: "clock", strategy: strategy, seed: 3)
                    return ClockUnderTest(SchedulerClock(scheduler), driver: .virtualTime(scheduler))
                }
            }
    }
}
