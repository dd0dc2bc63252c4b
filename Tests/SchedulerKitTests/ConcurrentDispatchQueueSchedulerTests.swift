import Dispatch
import SchedulerKit
import Synchronization
import TestSupport
import Testing

@Suite struct ConcurrentDispatchQueueSchedulerTests {
    @Test func tasksRunSideBySideWithItselfCurrent() {
        let scheduler = Schedulers.concurrent(name: "side-by-side")
        #expect(scheduler.traits.contains(.concurrent) && !scheduler.traits.contains(.serial))
        #expect(scheduler.width == ThreadPool.activeProcessorCount)
        let arrived = Counter()
        let metBoth = Counter()
        let wrongCurrent = Counter()
        for _ in 0..<2 {
            scheduler.schedule {
                if Schedulers.current !== scheduler { wrongCurrent.increment() }
                arrived.increment()
                if eventually(timeout: .seconds(10), { arrived.value >= 2 }) { metBoth.increment() }
            }
        }
        #expect(eventually { metBoth.value == 2 })
        #expect(wrongCurrent.value == 0)
    }

    @Test func delayedWorkIsNeverEarlyAndEqualDeadlinesStartInOrder() {
        let scheduler = ConcurrentDispatchQueueScheduler(name: "delayed", queue: .global())
        let deadline = scheduler.now + .milliseconds(20)
        let early = Counter()
        let ran = Counter()
        for _ in 0..<100 {
            scheduler.schedule(at: deadline) {
                if SchedulerTime.monotonicNow() < deadline { early.increment() }
                ran.increment()
            }
        }
        let cancelled = scheduler.schedule(after: .milliseconds(5)) { ran.increment() }
        #expect(cancelled.cancel())
        #expect(eventually { ran.value == 100 })
        pause(milliseconds: 20)
        #expect(ran.value == 100)
        #expect(early.value == 0)
    }

    @Test func recursiveStepsAndRepeatingTicksNeverOverlap() {
        let scheduler = Schedulers.concurrent(name: "one-at-a-time")
        let inStep = Atomic<Bool>(false)
        let overlaps = Counter()
        let steps = Counter()
        // Each step asks for two more: they are owed and run one after another, never side by side.
        let recursion = scheduler.scheduleRecursive { reschedule in
            if inStep.exchange(true, ordering: .acquiringAndReleasing) { overlaps.increment() }
            if steps.increment() < 200 {
                reschedule()
                reschedule()
            }
            inStep.store(false, ordering: .releasing)
        }
        #expect(eventually { steps.value >= 200 })
        recursion.cancel()
        let ticking = Atomic<Bool>(false)
        let ticks = Counter()
        let handle = scheduler.schedule(at: scheduler.now, every: .milliseconds(1)) {
            if ticking.exchange(true, ordering: .acquiringAndReleasing) { overlaps.increment() }
            pause(milliseconds: 3)
            ticking.store(false, ordering: .releasing)
            ticks.increment()
        }
        #expect(eventually { ticks.value >= 5 })
        handle.cancel()
        #expect(overlaps.value == 0)
    }
}
