import Dispatch
import SchedulerKit
import TestSupport
import Testing

@Suite struct TestSchedulerTests {
    @Test func nothingRunsUntilDriven() {
        let scheduler = TestScheduler()
        let ran = Flag()
        scheduler.schedule { ran.set(true) }
        pause(milliseconds: 1)
        #expect(!ran.value)
        scheduler.advance()
        #expect(ran.value)
    }

    @Test func advanceRunsDueWorkInOrderWithNowAtEachDueTime() {
        let scheduler = TestScheduler()
        let log = Shared<[String]>([])
        @Sendable func at(_ ns: Int64) -> SchedulerTime { SchedulerTime(nanoseconds: ns) }
        scheduler.schedule(at: at(30)) { log.update { $0.append("c@\(scheduler.now.nanoseconds)") } }
        scheduler.schedule(at: at(10)) {
            log.update { $0.append("a@\(scheduler.now.nanoseconds)") }
            scheduler.schedule(at: at(20)) { log.update { $0.append("added@\(scheduler.now.nanoseconds)") } }
        }
        scheduler.schedule(at: at(10)) { log.update { $0.append("b@\(scheduler.now.nanoseconds)") } }
        scheduler.schedule(at: at(50)) { log.update { $0.append("late") } }
        scheduler.advance(to: at(40))
        #expect(log.value == ["a@10", "b@10", "added@20", "c@30"])
        #expect(scheduler.now == at(40))
    }

    /// A repeating tick that cancels itself ran: it is the one task `step()` runs, and `run(maxSteps: 1)` counts it.
    @Test func aTickThatCancelsItselfIsTheOneStep() {
        func setUp() -> (TestScheduler, Shared<[String]>) {
            let scheduler = TestScheduler()
            let log = Shared<[String]>([])
            let handle = Shared<(any Cancellable)?>(nil)
            handle.update {
                $0 = scheduler.schedule(at: .zero + .seconds(1), every: .seconds(1), leeway: .zero) {
                    log.update { $0.append("tick") }
                    handle.value?.cancel()
                }
            }
            scheduler.schedule(at: .zero + .seconds(2)) { log.update { $0.append("later") } }
            return (scheduler, log)
        }
        let (stepped, steps) = setUp()
        #expect(stepped.step())
        #expect(steps.value == ["tick"])
        #expect(stepped.step())
        #expect(steps.value == ["tick", "later"])
        #expect(!stepped.step())
        let (ran, runs) = setUp()
        #expect(ran.run(maxSteps: 1) == .stoppedEarly(steps: 1, pending: 1))
        #expect(runs.value == ["tick"])
    }

    @Test func stepRunsExactlyOneTask() {
        let scheduler = TestScheduler()
        let count = Counter()
        for i in 1...3 { scheduler.schedule(after: .seconds(i)) { count.increment() } }
        #expect(scheduler.step())
        #expect(count.value == 1)
        #expect(scheduler.now == SchedulerTime.zero + .seconds(1))
        #expect(scheduler.step() && scheduler.step())
        #expect(!scheduler.step())
    }

    @Test func everyMissedRepeatingTickFiresInCreationOrder() {
        let scheduler = TestScheduler()
        let log = Shared<[String]>([])
        scheduler.schedule(at: .zero + .seconds(1), every: .seconds(1)) { log.update { $0.append("a") } }
        scheduler.schedule(at: .zero + .seconds(1), every: .seconds(1)) { log.update { $0.append("b") } }
        scheduler.advance(by: .seconds(1_000))
        #expect(log.value.count == 2_000)
        #expect(log.value.prefix(4) == ["a", "b", "a", "b"])
    }

    /// A re-armed tick keeps the place its repeating work took when it was scheduled: at an equal deadline it runs
    /// before one-shot work scheduled after the repeating work (a fresh sequence per tick would put it behind).
    @Test func aReArmedTickKeepsItsCreationOrderAmongEqualDeadlines() {
        let scheduler = TestScheduler()
        let log = Shared<[String]>([])
        scheduler.schedule(at: .zero + .seconds(1), every: .seconds(1)) { log.update { $0.append("a") } }
        scheduler.schedule(at: .zero + .seconds(1), every: .seconds(1)) { log.update { $0.append("b") } }
        scheduler.schedule(at: .zero + .seconds(2)) { log.update { $0.append("once") } }
        // Two re-armed ticks, so the second is still waiting when the first of that moment has been taken.
        scheduler.advance(by: .seconds(2))
        #expect(log.value == ["a", "b", "a", "b", "once"])
    }

    @Test func runIsBoundedAndSaysWhenItStoppedEarly() {
        let scheduler = TestScheduler()
        scheduler.schedule(at: .zero, every: .seconds(1)) {}
        #expect(scheduler.run(maxSteps: 10) == .stoppedEarly(steps: 10, pending: 1))
        let finite = TestScheduler()
        finite.schedule {}
        finite.schedule(after: .seconds(5)) {}
        #expect(finite.run() == .drained(steps: 2))
        #expect(finite.now == .zero + .seconds(5))
    }

    /// Cancelled work never moves `now`, also when `run()` passes its deadline on the way to the end.
    @Test func cancelledWorkNeverMovesTheClock() {
        let scheduler = TestScheduler()
        let cancelled = scheduler.schedule(after: .seconds(100)) {}
        scheduler.schedule(after: .seconds(10)) {}
        #expect(cancelled.cancel())
        #expect(scheduler.run() == .drained(steps: 1))
        #expect(scheduler.now == .zero + .seconds(10))
    }

    @Test func aMillionRecursiveStepsInVirtualTime() {
        let scheduler = TestScheduler()
        let steps = Counter()
        scheduler.scheduleRecursive { reschedule in
            if steps.increment() < 1_000_000 { reschedule() }
        }
        #expect(scheduler.run(maxSteps: 2_000_000) == .drained(steps: 1_000_000))
        #expect(scheduler.pendingCount == 0)
    }

    @Test func otherThreadsScheduleAndCancelDuringAnAdvance() {
        let scheduler = TestScheduler()
        let ran = Counter()
        for i in 0..<1_000 { scheduler.schedule(after: .milliseconds(i)) { ran.increment() } }
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            DispatchQueue.concurrentPerform(iterations: 10) { _ in
                for i in 0..<1_000 {
                    let handle = scheduler.schedule(after: .milliseconds(i % 7)) {}
                    if i % 2 == 0 { handle.cancel() }
                }
            }
        }
        scheduler.advance(by: .seconds(2))
        #expect(group.wait(timeout: .now() + 30) == .success)
        #expect(ran.value == 1_000)
    }

    /// A target already past runs what is due now and leaves the clock where it is (rule V5).
    @Test func theClockNeverGoesBackwards() {
        let scheduler = TestScheduler(now: .zero + .seconds(10))
        let ranAt = Shared<SchedulerTime?>(nil)
        scheduler.schedule(at: .zero + .seconds(3)) { ranAt.set(scheduler.now) }
        scheduler.advance(to: .zero + .seconds(1))
        #expect(scheduler.now == .zero + .seconds(10))
        #expect(ranAt.value == .zero + .seconds(10), "work due in the past runs at the current now")
    }

    @Test func drivingFromInsideAnActionIsAPreconditionFailure() async {
        await #expect(processExitsWith: .failure) {
            let scheduler = TestScheduler()
            scheduler.schedule { scheduler.advance() }
            scheduler.advance()
        }
    }
}

@Suite struct TestSchedulerDriverTests {
    /// Two threads advancing by a step each must never move the clock backwards (the target is read under the clock).
    @Test func concurrentAdvancesByADurationNeverGoBackwards() {
        let scheduler = TestScheduler()
        let ran = Counter()
        for i in 0..<2_000 { scheduler.schedule(after: .milliseconds(i)) { ran.increment() } }
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<1_000 { scheduler.advance(by: .milliseconds(1)) }
        }
        #expect(scheduler.now == .zero + .milliseconds(4_000))
        #expect(ran.value == 2_000)
    }
}

/// The queue holds its entries as unmanaged references (plain bits, no reference counting while they move), so
/// every way an entry leaves it must give its reference back exactly once: run, purged after a cancel, or dropped
/// with the scheduler.
@Suite struct TestSchedulerOwnershipTests {
    @Test func pendingWorkIsReleasedWithTheScheduler() {
        weak var capture: Capture?
        weak var handle: ScheduledWork?
        weak var tick: RepeatingWork?
        do {
            let scheduler = TestScheduler()
            let object = Capture()
            capture = object
            handle = scheduler.schedule(at: .zero + .seconds(60)) { object.touch() } as? ScheduledWork
            tick = scheduler.schedule(at: .zero, every: .seconds(1), leeway: .zero) { object.touch() } as? RepeatingWork
            scheduler.advance(by: .seconds(3))
        }
        #expect(capture == nil, "the closures of pending work outlived their scheduler")
        #expect(handle == nil && tick == nil, "a queued entry kept its node alive")
    }

    @Test func purgedEntriesAndRunTasksAreReleased() {
        let scheduler = TestScheduler()
        var handles: [ScheduledWork] = []
        for index in 0..<3_000 {
            let handle = scheduler.schedule(at: .zero + .seconds(3_600) + .milliseconds(Int64(index))) {}
            handles.append(handle as! ScheduledWork)
        }
        for handle in handles { #expect(handle.cancel()) }
        weak let cancelled = handles[0]
        handles.removeAll()
        for _ in 0..<3_000 { scheduler.schedule {} }  // grows the queue past the purge threshold
        #expect(cancelled == nil, "a purged entry kept its node alive")
        weak var ran: ScheduledWork?
        do { ran = scheduler.schedule {} as? ScheduledWork }
        scheduler.advance()
        #expect(ran == nil, "a task that ran kept its node alive")
        #expect(scheduler.pendingCount == 0)
    }

    @Test func aTickThatEndsIsReleased() {
        let scheduler = TestScheduler()
        let ticks = Counter()
        weak var handle: RepeatingWork?
        do {
            let work = scheduler.schedule(at: .zero, every: .seconds(1), leeway: .zero) { ticks.increment() }
            handle = work as? RepeatingWork
            scheduler.advance(by: .seconds(2))
            #expect(work.cancel())
        }
        scheduler.advance(by: .seconds(5))
        #expect(ticks.value == 3)
        #expect(handle == nil, "a cancelled tick stayed queued")
    }
}

@Suite struct TestSchedulerClockTests {
    /// Cancelled entries never move the clock, whether `run()` reaches them or a purge (at 1 024 queued) drops them
    /// first: the final `now` is the due time of the last task that ran, for both sizes.
    @Test(arguments: [10, 5_000])
    func cancelledWorkNeverMovesTheClock(cancelled count: Int) {
        let scheduler = TestScheduler(name: "clock")
        let ran = Counter()
        scheduler.schedule(at: .zero + .seconds(1)) { ran.increment() }
        let handles = (0..<count).map { index in
            scheduler.schedule(at: .zero + .seconds(2) + .milliseconds(Int64(index))) { ran.increment() }
        }
        for handle in handles { #expect(handle.cancel()) }
        scheduler.schedule(at: .zero + .milliseconds(1_500)) { ran.increment() }  // may trigger the purge
        #expect(scheduler.run() == .drained(steps: 2))
        #expect(ran.value == 2)
        #expect(scheduler.now == .zero + .milliseconds(1_500))
        #expect(!scheduler.step())
        #expect(scheduler.now == .zero + .milliseconds(1_500))
    }
}
