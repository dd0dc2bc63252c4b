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

/// The queue holds closures in slots it reuses and nodes and ticks as unmanaged references, so every way an entry
/// leaves it must give back what it holds exactly once: run, cancelled, purged after a cancel, or dropped with the
/// scheduler.
@Suite struct TestSchedulerOwnershipTests {
    @Test func pendingWorkIsReleasedWithTheScheduler() {
        weak var capture: Capture?
        weak var tick: RepeatingWork?
        let handle: any Cancellable
        do {
            let scheduler = TestScheduler()
            let object = Capture()
            capture = object
            handle = scheduler.schedule(at: .zero + .seconds(60)) { object.touch() }
            tick = scheduler.schedule(at: .zero, every: .seconds(1), leeway: .zero) { object.touch() } as? RepeatingWork
            scheduler.advance(by: .seconds(3))
        }
        #expect(capture == nil, "the closures of pending work outlived their scheduler")
        #expect(tick == nil, "a queued tick kept its node alive")
        // The handle outlives its scheduler: there is nothing left to cancel, and it never was cancelled.
        #expect(!handle.cancel() && !handle.isCancelled)
    }

    @Test func cancelledPurgedAndRunTasksReleaseTheirClosures() {
        let scheduler = TestScheduler()
        weak var cancelled: Capture?
        var handles: [any Cancellable] = []
        do {
            let object = Capture()
            cancelled = object
            for index in 0..<3_000 {
                handles.append(
                    scheduler.schedule(at: .zero + .seconds(3_600) + .milliseconds(Int64(index))) { object.touch() })
            }
        }
        for handle in handles { #expect(handle.cancel()) }
        #expect(cancelled == nil, "a cancelled closure outlived its cancel")
        #expect(handles.allSatisfy { $0.isCancelled })
        for _ in 0..<3_000 { scheduler.schedule {} }  // grows the queue past the purge threshold
        #expect(scheduler.pendingCount < 6_000, "the purge left the dead entries queued")
        weak var ran: Capture?
        do {
            let object = Capture()
            ran = object
            scheduler.schedule { object.touch() }
        }
        scheduler.advance()
        #expect(ran == nil, "a task that ran kept its closure alive")
        #expect(scheduler.pendingCount == 0)
        #expect(handles.allSatisfy { $0.isCancelled }, "a cancelled task's handle forgot its cancel")
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

/// A handle is a value naming a slot the queue reuses and the task's sequence number: it must act on its own task
/// only, whatever the slot holds later, and say truthfully what became of it.
@Suite struct TestSchedulerHandleTests {
    @Test func aStaleHandleNeverCancelsTheTaskThatReusedItsSlot() {
        let scheduler = TestScheduler()
        let ran = Counter()
        let first = scheduler.schedule { ran.increment() }
        scheduler.advance()
        let second = scheduler.schedule { ran.increment() }  // the slot the first one left
        #expect(!first.cancel(), "a finished task was cancelled")
        #expect(!first.isCancelled && !second.isCancelled)
        scheduler.advance()
        #expect(ran.value == 2)
    }

    @Test func isCancelledOutlivesTheSlot() {
        let scheduler = TestScheduler()
        let cancelled = scheduler.schedule(at: .zero + .seconds(1)) {}
        let ran = scheduler.schedule {}
        #expect(cancelled.cancel())
        #expect(!cancelled.cancel(), "a second cancel said true")
        scheduler.advance(by: .seconds(2))
        for _ in 0..<10_000 { scheduler.schedule {} }  // reuses both slots, over several ledgers
        scheduler.advance()
        #expect(cancelled.isCancelled)
        #expect(!ran.isCancelled && !ran.cancel())
    }

    @Test func aTaskCancelsALaterOneDueAtTheSameTime() {
        let scheduler = TestScheduler()
        let log = Shared<[String]>([])
        let later = Shared<(any Cancellable)?>(nil)
        let answer = Shared<Bool?>(nil)
        weak var capture: Capture?
        scheduler.schedule {
            let cancelled = later.value?.cancel()
            answer.update { $0 = cancelled }
            log.update { $0.append("first") }
        }
        do {
            let object = Capture()
            capture = object
            later.update {
                $0 = scheduler.schedule {
                    object.touch()
                    log.update { $0.append("second") }
                }
            }
        }
        scheduler.schedule { log.update { $0.append("third") } }
        scheduler.advance()
        #expect(answer.value == true, "a cancel before the task started said false")
        #expect(log.value == ["first", "third"])
        #expect(later.value?.isCancelled == true)
        later.update { $0 = nil }
        #expect(capture == nil, "the cancelled closure outlived the advance that reached it")
    }

    @Test func aRunningTaskCannotBeCancelled() {
        let scheduler = TestScheduler()
        let handle = Shared<(any Cancellable)?>(nil)
        let answer = Shared<Bool?>(nil)
        handle.update { $0 = scheduler.schedule { answer.update { $0 = handle.value?.cancel() } } }
        scheduler.advance()
        #expect(answer.value == false)
        #expect(handle.value?.isCancelled == false)
    }

    @Test func cancelsRaceTheDrainAndEachTaskEndsOnce() async {
        let scheduler = TestScheduler()
        let tasks = 20_000
        let ran = (0..<tasks).map { _ in Counter() }
        let handles = (0..<tasks).map { index in scheduler.schedule { ran[index].increment() } }
        let cancelledTrue = Counter()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { scheduler.advance() }
            group.addTask {
                for index in stride(from: tasks - 1, through: 0, by: -1) where handles[index].cancel() {
                    cancelledTrue.increment()
                }
            }
        }
        scheduler.advance()
        let ranCount = ran.filter { $0.value == 1 }.count
        #expect(ran.allSatisfy { $0.value <= 1 })
        #expect(ranCount + cancelledTrue.value == tasks)
        for index in 0..<tasks { #expect((ran[index].value == 1) != handles[index].isCancelled) }
    }
}
