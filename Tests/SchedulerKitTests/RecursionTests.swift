import Dispatch
import SchedulerKit
import TestSupport
import Testing

@Suite struct RecursionTests {
    @Test func aMillionStepsOnTheImmediateSchedulerWithAFlatStack() {
        let steps = Counter()
        let depth = Shared<(min: UInt, max: UInt)>((.max, 0))
        Schedulers.immediate.scheduleRecursive { reschedule in
            let n = steps.increment()
            if n % 10_000 == 0 {
                var marker = 0
                let address = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
                depth.update { $0 = (min($0.min, address), max($0.max, address)) }
            }
            if n < 1_000_000 { reschedule() }
        }
        #expect(steps.value == 1_000_000)
        let (low, high) = depth.value
        #expect(high - low < 64 * 1024, "stack addresses span \(high - low) bytes")
    }

    @Test func everyStepRunsWithTheSchedulerCurrent() {
        let scheduler = DispatchQueueScheduler(name: "recursion")
        let wrongCurrent = Counter()
        let steps = Counter()
        let done = DispatchSemaphore(value: 0)
        scheduler.scheduleRecursive { reschedule in
            if Schedulers.current !== scheduler { wrongCurrent.increment() }
            if steps.increment() < 10_000 { reschedule() } else { done.signal() }
        }
        done.wait()
        #expect(wrongCurrent.value == 0)
    }

    @Test func cancellingFromInsideStopsWithinOneStep() {
        let scheduler = TestScheduler()
        let steps = Counter()
        let handle = Shared<(any Cancellable)?>(nil)
        handle.update { slot in
            slot = scheduler.scheduleRecursive { reschedule in
                if steps.increment() == 5 { handle.value?.cancel() }
                reschedule()
            }
        }
        scheduler.run(maxSteps: 100)
        #expect(steps.value == 5)
        #expect(handle.value?.isCancelled == true)
    }

    @Test func cancellingFromOutsideReturnsTrueOnceAndReleasesTheBody() {
        final class Capture: Sendable {}
        weak var weakCapture: Capture?
        let scheduler = TestScheduler()
        let handle: any Cancellable = {
            let capture = Capture()
            weakCapture = capture
            return scheduler.scheduleRecursive { reschedule in
                _ = capture
                reschedule()
            }
        }()
        scheduler.step()
        scheduler.step()
        #expect(handle.cancel())
        #expect(!handle.cancel())
        #expect(weakCapture == nil)
        #expect(scheduler.run(maxSteps: 10) == .drained(steps: 0))
    }

    @Test func reschedulingFromAnAsynchronousCallbackKeepsGoing() {
        let scheduler = DispatchQueueScheduler(name: "recursion-async")
        let steps = Counter()
        let done = DispatchSemaphore(value: 0)
        scheduler.scheduleRecursive { reschedule in
            if steps.increment() == 20 {
                done.signal()
                return
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(1)) { reschedule() }
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(steps.value == 20)
    }
}
