import Dispatch
import SchedulerKit

/// Negative control for P4: a concurrent scheduler whose repeating timer hands every tick to the concurrent queue
/// on its own, so a slow tick and the next one run at once.
final class OverlappingTicksScheduler: TimedScheduler, ConcurrentScheduler {
    let name = "overlapping-ticks"
    let width = 2
    private let queue = DispatchQueue(label: "overlapping-ticks", attributes: .concurrent)
    private let timerQueue = DispatchQueue(label: "overlapping-ticks-timer")
    var traits: SchedulerTraits { [.concurrent, .asynchronous, .timed, .repeating, .setsCurrent, .sharedThreads] }
    var now: SchedulerTime { .monotonicNow() }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let task = ScheduledWork(work)
        queue.async { [self] in _ = Schedulers.performAsCurrent(self) { task.run() } }
        return task
    }

    func schedule(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let task = ScheduledWork(work)
        queue.asyncAfter(deadline: DispatchTime(uptimeNanoseconds: UInt64(max(0, deadline.nanoseconds)))) { [self] in
            _ = Schedulers.performAsCurrent(self) { task.run() }
        }
        return task
    }

    func schedule(
        at start: SchedulerTime, every interval: Duration, leeway: Duration, _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        let repeating = RepeatingWork(work)
        let timer = TimerBox(DispatchSource.makeTimerSource(queue: timerQueue))
        timer.source.schedule(
            deadline: DispatchTime(uptimeNanoseconds: UInt64(max(0, start.nanoseconds))),
            repeating: .nanoseconds(
                Int(interval.components.seconds * 1_000_000_000 + interval.components.attoseconds / 1_000_000_000)))
        timer.source.setEventHandler { [self] in
            // The defect: each tick goes to the concurrent queue on its own, whether the last one ended or not.
            queue.async { [self] in Schedulers.performAsCurrent(self) { Self.runTickIgnoringOverlap(work) } }
        }
        repeating.setOnEnd { timer.source.cancel() }
        timer.source.resume()
        // Ticks run `work` directly (RepeatingWork would refuse a second tick while one runs); cancel stops the timer.
        return repeating
    }

    private static func runTickIgnoringOverlap(_ work: @Sendable () -> Void) { work() }
}

/// A Dispatch timer source that can cross threads.
// @unchecked Sendable: Dispatch sources are thread-safe objects.
final class TimerBox: @unchecked Sendable {
    let source: any DispatchSourceTimer
    init(_ source: any DispatchSourceTimer) { self.source = source }
}
