import Foundation
import SchedulerKit

/// One run of a program on one scheduler: the check's thread does the top-level steps in order, each task does its
/// own (`nested`, `cancelInside`) when it runs, and everything is written to a ``ProgramRecord`` for the model.
final class ProgramRun: Sendable {
    let program: SchedulerProgram
    let scheduler: any Scheduler
    let record = ProgramRecord()
    private let handles = Locked<[ProgramTask: any Cancellable]>([:])
    private let captures = Locked<[ProgramTask: WeakBox]>([:])
    private let inside = InsideSchedule()
    /// How many times the check has let time pass (and once more at the end): a held task waits for the next.
    private let passes = Counter()

    /// What each task's closure holds: freed once the scheduler lets go of the closure.
    private final class Capture: Sendable { func touch() {} }

    /// What the program promises, for when it may stop waiting for a task.
    private let model: ProgramModel

    init(_ program: SchedulerProgram, on scheduler: any Scheduler, model: ProgramModel) {
        self.program = program
        self.scheduler = scheduler
        self.model = model
    }

    private var timed: (any TimedScheduler)? { scheduler as? any TimedScheduler }
    private var driver: (any VirtualTimeDriver)? { scheduler as? any VirtualTimeDriver }

    /// Performs every step, then lets the program settle: on virtual time with a final `run()`; on real time until
    /// every task ran or was cancelled (for at most `settle`), and 3 ms more, to see anything run that must not. A
    /// task a cancelled one scheduled when it ran after all, once the program had settled, is not waited for, so it
    /// is not judged for never running (`ProgramRecord.markSettling()`).
    func perform(settle: Duration) {
        for step in program.steps where step.parent == nil { perform(step) }
        passes.increment()
        if driver != nil {
            drive(.run(maxSteps: 10_000), final: true)
        } else {
            poll(upTo: settle) {
                record.markSettling()
                return isSettled
            }
            usleep(3_000)
        }
    }

    /// The tasks whose closures are still alive.
    var liveCaptures: [ProgramTask] {
        captures.withLock { $0.filter { !$0.value.isNil }.map(\.key).sorted() }
    }

    /// Lets go of the handles (after the model has checked what a held handle must not keep).
    func dropHandles() { handles.withLock { $0 = [:] } }

    private var isSettled: Bool {
        let (scheduled, ends, cancels) = (record.scheduledTasks, record.ends, record.cancels)
        let byTask = Dictionary(grouping: cancels, by: \.target)
        return scheduled.values.allSatisfy { entry in
            model.mayStopWaiting(for: byTask[entry.task] ?? []) || (entry.interval == nil && ends[entry.task] != nil)
        }
    }

    private func perform(_ step: ProgramStep, from parent: ProgramTask? = nil) {
        switch step {
        case .schedule(let task, let holds):
            let body = self.body(task, holdsUntilPass: holds ? passes.value + 1 : nil)
            submit(task, by: parent, deadline: nil) { self.scheduler.schedule(body) }
        case .scheduleAt(let task, let offset), .nested(let task, _, .some(let offset)):
            guard let timed else { return }
            let body = self.body(task, holdsUntilPass: nil)
            let deadline = timed.now + .milliseconds(offset)
            submit(task, by: parent, deadline: deadline) { timed.schedule(at: deadline, body) }
        case .nested(let task, _, .none):
            let body = self.body(task, holdsUntilPass: nil)
            submit(task, by: parent, deadline: nil) { self.scheduler.schedule(body) }
        case .repeating(let task, let start, let interval, let ticks):
            guard let timed else { return }
            let body = self.tick(task, cancelsItselfIn: ticks)
            let deadline = timed.now + .milliseconds(start)
            submit(task, by: parent, deadline: deadline, interval: .milliseconds(interval)) {
                timed.schedule(at: deadline, every: .milliseconds(interval), body)
            }
        case .cancel(let target), .cancelInside(let target, _):
            let handle = handles.withLock { $0[target] }
            record.cancel(target, by: parent, handle)
        case .pass, .run:
            drive(step, final: false)
        }
    }

    private func submit(
        _ task: ProgramTask, by parent: ProgramTask?, deadline: SchedulerTime?, interval: Duration? = nil,
        _ call: () -> any Cancellable
    ) {
        let callNow = timed?.now
        let handle = inside.call(call)
        handles.withLock { $0[task] = handle }
        record.scheduled(task, deadline: deadline, callNow: callNow, by: parent, interval: interval)
    }

    private func register(_ task: ProgramTask) -> Capture {
        let capture = Capture()
        captures.withLock { $0[task] = WeakBox(capture) }
        return capture
    }

    private func began(_ task: ProgramTask, tick: Int) {
        record.began(
            task, tick: tick, now: timed?.now, currentIsScheduler: Schedulers.current === scheduler,
            onScheduleStack: inside.thisThreadIsInside)
    }

    private func body(_ task: ProgramTask, holdsUntilPass pass: Int?) -> @Sendable () -> Void {
        let capture = register(task)
        let actions = program.actions(of: task)
        return { [self] in
            capture.touch()
            began(task, tick: 1)
            if let pass { poll(upTo: .seconds(1)) { passes.value >= pass } }
            for action in actions { perform(action, from: task) }
            record.ended(task)
        }
    }

    private func tick(_ task: ProgramTask, cancelsItselfIn last: Int) -> @Sendable () -> Void {
        let capture = register(task)
        let ticks = Counter()
        return { [self] in
            capture.touch()
            let tick = ticks.increment()
            began(task, tick: tick)
            if tick == last {
                // The first tick may start before schedule returned the handle (real time, due now).
                poll(upTo: .seconds(2)) { handles.withLock { $0[task] != nil } }
                record.cancel(task, by: task, handles.withLock { $0[task] })
            }
            record.ended(task)
        }
    }

    private func drive(_ step: ProgramStep, final: Bool) {
        let before = timed?.now
        let start = record.next()
        var outcome: VirtualTimeRunOutcome?
        if let driver {
            record.driving.store(true, ordering: .releasing)
            switch step {
            case .pass(let ms): driver.advance(by: .milliseconds(ms))
            case .run(let maxSteps): outcome = driver.run(maxSteps: maxSteps)
            default: break
            }
            record.driving.store(false, ordering: .releasing)
        } else if case .pass(let ms) = step {
            passes.increment()
            usleep(UInt32(ms) * 1_000)
        }
        record.drove(
            ProgramRecord.Drive(
                step: step, startSequence: start, endSequence: record.next(), nowBefore: before, nowAfter: timed?.now,
                outcome: outcome, isFinal: final))
    }
}
