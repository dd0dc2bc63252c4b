import SchedulerKit
import TestSupport
import Testing

@Suite struct RepeatingWorkTests {
    @Test func ticksUntilCancelledThenEndsOnce() {
        let ticks = Counter()
        let ends = Counter()
        let work = RepeatingWork { ticks.increment() }
        work.setOnEnd { ends.increment() }
        #expect(work.runTick() == .ran && work.runTick() == .ran)
        #expect(work.cancel())
        #expect(!work.cancel())
        #expect(work.runTick() == .skipped)
        #expect(ticks.value == 2)
        #expect(ends.value == 1)
    }

    @Test func cancelFromInsideATickStopsLaterTicks() {
        let holder = Shared<RepeatingWork?>(nil)
        let insideResult = Shared<Bool?>(nil)
        let ends = Counter()
        let work = RepeatingWork { insideResult.update { $0 = holder.value!.cancel() } }
        work.setOnEnd { ends.increment() }
        holder.update { $0 = work }
        #expect(work.runTick() == .ranLast, "the tick ran, and observing the cancel it ends the repetition")
        #expect(insideResult.value == true, "no later tick will start, so cancel() is true")
        #expect(work.isCancelled && !work.cancel())
        #expect(ends.value == 1)
        holder.update { $0 = nil }
    }

    @Test func cancelReleasesTheClosure() {
        final class Capture: Sendable {}
        weak var weakCapture: Capture?
        let work: RepeatingWork = {
            let capture = Capture()
            weakCapture = capture
            return RepeatingWork { _ = capture }
        }()
        work.cancel()
        #expect(weakCapture == nil)
    }
}
