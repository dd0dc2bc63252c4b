import Foundation
import OpenCombine
import SchedulerKit
import SchedulerKitCombine

// 33: CombineScheduler's repeating work: "the returned `Cancellable` cancels it" (Docs/Combine.md: "The `Cancellable`
// it returns cancels the repeating work").
func probeCombineRepeatingCancel() {
    let test = TestScheduler()
    let combine = test.combine
    let ticks = Box(0)
    let cancellable = combine.schedule(
        after: combine.now, interval: .milliseconds(100), tolerance: .zero, options: nil
    ) { ticks.update { $0 += 1 } }
    test.advance(by: .milliseconds(350))
    let before = ticks.value
    cancellable.cancel()
    test.advance(by: .seconds(1))
    verdict(before == 4, "ticks in the first 350 ms: \(before)")
    verdict(ticks.value == before, "ticks after cancel() and 1 s more: \(ticks.value) (expected \(before))")
}

// 34: "advancing saturates at 0 and at the distant future instead of trapping" (Docs/Combine.md).
func probeCombineSaturation() {
    let time = CombineSchedulerTime(SchedulerTime(nanoseconds: 10))
    let far = time.advanced(by: .init(nanoseconds: .max))
    let past = time.advanced(by: .init(nanoseconds: -.max))
    verdict(far.time == .distantFuture, "10 ns advanced by Int64.max ns: \(far) (expected the distant future)")
    verdict(past.time == .zero, "10 ns advanced by -Int64.max ns: \(past) (expected zero)")
    let test = TestScheduler(now: SchedulerTime(nanoseconds: 10))
    let combine = test.combine
    let ran = Box(false)
    combine.schedule(after: combine.now.advanced(by: .init(nanoseconds: .max)), tolerance: .zero, options: nil) {
        ran.value = true
    }
    test.advance(by: .seconds(1))
    verdict(!ran.value, "work scheduled Int64.max ns from now ran within a second: \(ran.value)")
}
