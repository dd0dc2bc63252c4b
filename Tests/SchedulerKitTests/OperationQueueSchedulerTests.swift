import Dispatch
import Foundation
import SchedulerKit
import TestSupport
import Testing

@Suite struct OperationQueueSchedulerTests {
    @Test func serialFIFOWithItselfCurrent() {
        let scheduler = OperationQueueScheduler(name: "ops")
        #expect(scheduler.operationQueue.maxConcurrentOperationCount == 1)
        let order = Shared<[Int]>([])
        let wrongCurrent = Counter()
        for i in 0..<2_000 {
            scheduler.schedule {
                if Schedulers.current !== scheduler { wrongCurrent.increment() }
                order.append(i)
            }
        }
        #expect(drain(scheduler))
        #expect(order.value == Array(0..<2_000))
        #expect(wrongCurrent.value == 0)
    }

    @Test func cancelBeforeStartCancelsTheOperation() {
        let scheduler = OperationQueueScheduler(name: "cancel")
        let gate = Gate()
        gate.block(scheduler)
        let order = Shared<[Int]>([])
        scheduler.schedule { order.append(1) }
        let second = scheduler.schedule { order.append(2) }
        scheduler.schedule { order.append(3) }
        #expect(second.cancel())
        #expect(!second.cancel())
        gate.open()
        #expect(drain(scheduler))
        #expect(order.value == [1, 3])
    }

    @Test func delayedWorkIsNeverEarlyAndCancellable() {
        let scheduler = OperationQueueScheduler(name: "delayed")
        let deadline = scheduler.now + .milliseconds(10)
        let ranAt = Shared<SchedulerTime?>(nil)
        scheduler.schedule(at: deadline) { ranAt.update { $0 = .monotonicNow() } }
        let cancelled = Flag()
        let other = scheduler.schedule(at: deadline) { cancelled.set(true) }
        #expect(other.cancel())
        #expect(eventually { ranAt.value != nil })
        #expect(ranAt.value! >= deadline)
        #expect(drain(scheduler))
        #expect(!cancelled.value)
    }

    @Test func repeatingTicksNeverOverlapAndStopOnCancel() {
        let scheduler = OperationQueueScheduler(name: "repeating")
        let ticks = Counter()
        let inTick = Counter()
        let overlaps = Counter()
        let handle = scheduler.schedule(at: scheduler.now, every: .milliseconds(2)) {
            if inTick.increment() != 1 { overlaps.increment() }
            ticks.increment()
            pause(milliseconds: 3)  // longer than the interval: later ticks coalesce instead of piling up
            inTick.decrement()
        }
        #expect(eventually { ticks.value >= 4 })
        #expect(handle.cancel())
        #expect(drain(scheduler))
        let count = ticks.value
        pause(milliseconds: 20)
        #expect(ticks.value == count)
        #expect(overlaps.value == 0)
    }

    @Test func aLargerWidthRunsSideBySideAndNeverMore() {
        // Width 2 on 2 cores: OperationQueue runs on Dispatch's threads, which Dispatch does not reliably grow beyond
        // the cores while other tests load the machine (a width of 3 was reached in one ThreadSanitizer run of two).
        let scheduler = OperationQueueScheduler(name: "wide", maxConcurrentOperationCount: 2)
        #expect(scheduler.width == 2)
        #expect(scheduler.traits == OperationQueueScheduler.concurrentTraits)
        let inFlight = Counter()
        let most = Shared(0)
        let metAll = Counter()
        // Two that wait for each other (generously: Dispatch may be slow to bring up a thread beside other tests),
        // and a third that may only start once one of them ended.
        for _ in 0..<3 {
            scheduler.schedule {
                let now = inFlight.increment()
                most.update { $0 = max($0, now) }
                if eventually(timeout: .seconds(10), { inFlight.value >= 2 || metAll.value > 0 }) { metAll.increment() }
                inFlight.decrement()
            }
        }
        // Not `drain`: at a width of 2 its marker task runs beside the others.
        #expect(eventually(timeout: .seconds(30)) { metAll.value == 3 })
        #expect(most.value == 2)
    }

    @Test func aCallerOwnedQueueIsSharedAndOrderedByPriority() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let low = OperationQueueScheduler(name: "low", operationQueue: queue, queuePriority: .veryLow)
        let high = OperationQueueScheduler(name: "high", operationQueue: queue, queuePriority: .veryHigh)
        #expect(low.width == 1 && low.traits.contains(.serial))
        let gate = Gate()
        gate.block(low)
        let order = Shared<[String]>([])
        low.schedule { order.append("low") }
        high.schedule { order.append("high") }
        gate.open()
        #expect(drain(low))
        #expect(drain(high))
        #expect(order.value == ["high", "low"])
    }
}
