import Dispatch
import SchedulerKit
import TestSupport
import Testing

@Suite struct DispatchQueueSchedulerTests {
    @Test func serialAndFIFOEvenOnAConcurrentTarget() {
        let scheduler = DispatchQueueScheduler(name: "serial", targetQueue: .global())
        let order = Shared<[Int]>([])
        let inFlight = Counter()
        let overlaps = Counter()
        for i in 0..<10_000 {
            scheduler.schedule {
                if inFlight.increment() != 1 { overlaps.increment() }
                order.append(i)
                inFlight.decrement()
            }
        }
        #expect(drain(scheduler))
        #expect(order.value == Array(0..<10_000))
        #expect(overlaps.value == 0)
    }

    @Test func everyKindOfTaskRunsWithItselfCurrent() {
        let scheduler = DispatchQueueScheduler(name: "current")
        let seen = Shared<[Bool]>([])
        let record: @Sendable () -> Void = { seen.update { $0.append(Schedulers.current === scheduler) } }
        scheduler.schedule(record)
        scheduler.schedule(after: .milliseconds(1), record)
        let ticks = Counter()
        let repeating = scheduler.schedule(at: scheduler.now, every: .milliseconds(2)) {
            if ticks.increment() <= 2 { record() }
        }
        #expect(eventually { seen.value.count == 4 })
        repeating.cancel()
        #expect(seen.value == [true, true, true, true])
        #expect(drain(scheduler))
        // A raw submission to the same target queue sees no current scheduler.
        let raw = Shared<Bool?>(nil)
        DispatchQueue.global().sync { raw.update { $0 = Schedulers.current == nil } }
        #expect(raw.value == true)
    }

    @Test func delayedWorkIsNeverEarlyAndEqualDeadlinesRunFIFO() {
        let scheduler = DispatchQueueScheduler(name: "delayed")
        let deadline = scheduler.now + .milliseconds(20)
        let order = Shared<[Int]>([])
        let early = Counter()
        for i in 0..<1_000 {
            scheduler.schedule(at: deadline) {
                if SchedulerTime.monotonicNow() < deadline { early.increment() }
                order.append(i)
            }
        }
        #expect(eventually { order.value.count == 1_000 })
        #expect(order.value == Array(0..<1_000), "raw asyncAfter runs these nearly reversed")
        #expect(early.value == 0)
    }

    @Test func immediateWorkIsNotHeldBehindAFarFutureTimer() {
        let scheduler = DispatchQueueScheduler(name: "far-future")
        let far = scheduler.schedule(after: .seconds(3_600)) {}
        #expect(drain(scheduler, timeout: .seconds(5)))
        #expect(far.cancel())
    }

    @Test func aCancelledDelayedTaskReleasesItsCapturesAtOnce() {
        final class Capture: Sendable {}
        weak var weakCapture: Capture?
        let scheduler = DispatchQueueScheduler(name: "release")
        let handle: any Cancellable = {
            let capture = Capture()
            weakCapture = capture
            return scheduler.schedule(after: .seconds(3_600)) { _ = capture }
        }()
        #expect(handle.cancel())
        #expect(weakCapture == nil)
    }

    @Test func repeatingWorkIsFixedRateAndStopsWhenCancelled() {
        let scheduler = DispatchQueueScheduler(name: "repeating")
        let start = scheduler.now + .milliseconds(5)
        let times = Shared<[SchedulerTime]>([])
        let handle = scheduler.schedule(at: start, every: .milliseconds(5), leeway: .zero) {
            times.update { $0.append(SchedulerTime.monotonicNow()) }
        }
        #expect(eventually { times.value.count >= 5 })
        #expect(handle.cancel())
        #expect(drain(scheduler))
        let count = times.value.count
        pause(milliseconds: 30)
        #expect(times.value.count == count, "no tick after cancel() returned true")
        for (k, time) in times.value.enumerated() {
            #expect(time >= start + .milliseconds(5 * k), "tick \(k) was early")
        }
    }

    @Test func droppingARepeatingHandleDoesNotStopIt() {
        let scheduler = DispatchQueueScheduler(name: "dropped")
        let ticks = Counter()
        let stop = Shared<(any Cancellable)?>(nil)
        do {
            _ = scheduler.schedule(at: scheduler.now, every: .milliseconds(2)) {
                if ticks.increment() == 5 { stop.value?.cancel() }
            }
        }
        #expect(eventually { ticks.value >= 5 })
    }

    @Test func factoriesMapRACPrioritiesToQoS() {
        #expect(SchedulerPriority.high.qos == .userInitiated)
        #expect(SchedulerPriority.background.qos == .background)
        let scheduler = Schedulers.scheduler(priority: .low, name: "low")
        #expect(scheduler.name == "low")
        #expect(drain(scheduler))
        #expect(drain(Schedulers.background(qos: .utility, name: "utility")))
    }

    @Test func repeatingArgumentsAreChecked() async {
        await #expect(processExitsWith: .failure) {
            let scheduler = DispatchQueueScheduler(name: "bad")
            scheduler.schedule(at: scheduler.now, every: .zero) {}
        }
        await #expect(processExitsWith: .failure) {
            let scheduler = DispatchQueueScheduler(name: "bad")
            scheduler.schedule(at: scheduler.now, every: .seconds(1), leeway: .seconds(-1)) {}
        }
    }
}
