#if SwiftClocks
    import Clocks
    import SchedulerConformance

    extension ClockSubject {
        /// Point-Free's swift-clocks as subjects of the CL rules: `TestClock`, a virtual clock that a test advances,
        /// and `ImmediateClock`, which never waits and moves its `now` to each deadline it is asked to sleep until.
        public static let swiftClocks: [ClockSubject] = [testClock, immediateClock]

        /// Driven by its own `advance(by:)`; settling is an advance by nothing, which lets every sleeper started so
        /// far reach its sleep (the clock yields to them) and wakes what is due now.
        public static let testClock = ClockSubject(
            name: "swift-clocks TestClock", summary: "Point-Free's virtual clock, moved by advance(by:)",
            // Both pass on a quiet machine and fail on a busy one (Docs/Conformance.md, "The kit on a busy machine"):
            // TestClock relies on yields to let its sleepers run, and yields starve when every CPU is busy.
            expectedFailures: [
                .cl2:
                    "a sleep until now or the past that reaches the clock after the last advance waits for the next one (swift-clocks#22 and #23, fixed for sleepers that arrive in time): on a busy machine the sleeper's task arrives late",
                .cl5:
                    "advance(by:) yields between sleepers instead of waiting for each woken one to run: on a busy machine a woken sleeper runs after the clock has moved on and reads a later now (element-x-ios#6022 replaced TestClock for its yields on busy CI)",
            ]
        ) {
            let clock = TestClock<Duration>()
            return ClockUnderTest(
                clock,
                driver: VirtualClockDriver(
                    settle: { await clock.advance(by: .zero) }, advance: { await clock.advance(by: $0) },
                    runUntilIdle: { await clock.run() }))
        }

        /// It moves by itself, as far as a sleeper can tell: each sleep returns at once with `now` at its deadline.
        public static let immediateClock = ClockSubject(
            name: "swift-clocks ImmediateClock", summary: "Point-Free's clock whose sleeps return at once",
            expectedFailures: [
                .cl1:
                    "each sleep sets now to its own deadline, the last writer wins: with sleepers side by side, one reads a now that another set below its deadline (now moves backwards)",
                .cl6:
                    "a sleep returns at once, so there is no sleep left to cancel: a task cancelled while it sleeps returns normally; one cancelled before it sleeps throws",
            ]
        ) {
            ClockUnderTest(ImmediateClock<Duration>())
        }
    }
#endif
