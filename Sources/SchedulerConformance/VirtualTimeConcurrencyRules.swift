import Dispatch
import Foundation
import SchedulerKit
import Synchronization
import ToolSupport

/// V8: virtual time under concurrent use: other threads schedule and cancel while an advance runs its actions.
extension VirtualTimeRules {
    static let noDeadlock = ConformanceRule(
        id: .v8, family: .virtualTime,
        evidence: .mixed(
            forced: "20 actions that wait for another thread to use the scheduler", trials: 10_000,
            trial: "schedule and cancel calls from 10 threads racing an advance"),
        statement:
            "Ten threads may schedule and cancel while an advance runs, and actions run with no internal lock held, so an action can wait for another thread that uses the scheduler.",
        why:
            "Tests of concurrent code schedule from many threads while the clock advances; an action that waits for another thread must not deadlock on the scheduler's lock.",
        catches:
            "ReactiveSwift's TestScheduler.advance(to:) returns still holding its lock (seen in its source); ReactiveX/RxSwift#2609, fixed by #2610 (the virtual-time scheduler's thread check crashed under Swift Testing).",
        requires: .virtualTime, excludes: .threadConfined
    ) { context in
        let scheduler = try makeDriver(context)
        let blocked = Counter()
        let actionsRan = Counter()
        // Each action waits for another thread that schedules, cancels and reads now on the same scheduler.
        for _ in 0..<20 {
            scheduler.schedule(at: scheduler.now + .milliseconds(1)) {
                let helped = DispatchSemaphore(value: 0)
                DispatchQueue.global().async {
                    scheduler.schedule(at: scheduler.now + .seconds(1)) {}.cancel()
                    _ = scheduler.now
                    helped.signal()
                }
                if !wait(helped, timeout: .seconds(5)) { blocked.increment() }
                actionsRan.increment()
            }
        }
        let advanced = DispatchSemaphore(value: 0)
        let watch = context.watch
        Thread {
            while actionsRan.value < 20 && !watch.isAbandoned {
                watch.beginDriving(.advanceByOneMillisecond)
                scheduler.advance(by: .milliseconds(1))
                watch.endDriving()
            }
            advanced.signal()
        }.start()
        // What the producers asked for must happen: each task runs once, unless its cancel() said true.
        let marks = Shared<[RunMark]>([])
        Producers.run(10) { _ in
            var mine: [RunMark] = []
            for index in 0..<1_000 {
                let mark = RunMark()
                let handle = scheduler.schedule(at: scheduler.now + .milliseconds(index % 3)) { mark.ran() }
                if index % 2 == 0 && handle.cancel() { mark.cancelled() }
                mine.append(mark)
            }
            marks.update { $0 += mine }
        }
        try require(
            wait(advanced, timeout: .seconds(30)), "the advancing thread did not finish within 30 s (deadlock?)")
        try require(
            blocked.value == 0,
            "\(blocked.value) of 20 actions could not get another thread to use the scheduler within 5 s (a lock is held while actions run)"
        )
        scheduler.advance(by: .seconds(1))
        let all = marks.value
        let lost = all.filter { !$0.wasCancelled && $0.runs == 0 }.count
        let ranCancelled = all.filter { $0.wasCancelled && $0.runs > 0 }.count
        let twice = all.filter { $0.runs > 1 }.count
        try require(
            lost + ranCancelled + twice == 0,
            "of \(grouped(all.count)) tasks scheduled from 10 threads during an advance, \(lost) never ran, \(ranCancelled) ran after cancel() said true, \(twice) ran twice"
        )
        return ""
    }
}

/// One task of V8's producers: how often it ran, and whether its cancel() said true.
private final class RunMark: Sendable {
    private let runCount = Atomic<Int>(0)
    private let cancelledFlag = Atomic<Bool>(false)
    func ran() { runCount.add(1, ordering: .relaxed) }
    func cancelled() { cancelledFlag.store(true, ordering: .relaxed) }
    var runs: Int { runCount.load(ordering: .relaxed) }
    var wasCancelled: Bool { cancelledFlag.load(ordering: .relaxed) }
}
