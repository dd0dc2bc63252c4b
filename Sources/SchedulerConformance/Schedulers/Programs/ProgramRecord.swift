import SchedulerKit
import Synchronization

/// What happened while a program ran: every start, end, scheduling, cancel and drive of the clock, stamped with one
/// sequence, so that the model can tell what came before what across threads.
final class ProgramRecord: Sendable {
    /// A task (or a tick) began.
    struct Start: Sendable {
        let task: ProgramTask
        /// 1 for one-shot work; the tick's number for repeating work.
        let tick: Int
        let sequence: Int
        /// The scheduler's clock as the task began (timed schedulers).
        let now: SchedulerTime?
        /// The program's other tasks that were running as it began, and how many ticks of its own.
        let others: [ProgramTask]
        let ownTicksRunning: Int
        let currentIsScheduler: Bool
        /// It began on the stack of a `schedule` call on the same thread.
        let onScheduleStack: Bool
        /// It began while the check was inside advance, step or run (virtual time).
        let whileDriven: Bool
    }

    /// A `schedule` call returned.
    struct Scheduled: Sendable {
        let task: ProgramTask
        let sequence: Int
        /// The deadline asked for, and the clock as the call was made (timed work).
        let deadline: SchedulerTime?
        let callNow: SchedulerTime?
        /// The check's thread made the call (nil) or this task did, from inside.
        let producer: ProgramTask?
        /// Repeating work's interval.
        let interval: Duration?

        /// When it is due on virtual time: a past deadline counts as the moment of the call.
        var due: SchedulerTime? { deadline.map { max($0, callNow ?? $0) } }
        /// Plain work, or work due at or before the call (which behaves like plain work, T3).
        var isDueAtCall: Bool { deadline.map { $0 <= (callNow ?? $0) } ?? true }
    }

    /// A `cancel()` returned (`result` nil: the task was not scheduled yet, so there was nothing to cancel).
    struct Cancel: Sendable {
        let target: ProgramTask
        let by: ProgramTask?
        let result: Bool?
        /// Taken as the call began, and as it returned.
        let callSequence: Int
        let sequence: Int
    }

    /// The check drove virtual time or let real time pass (a step of the program).
    struct Drive: Sendable {
        let step: ProgramStep
        let startSequence: Int
        let endSequence: Int
        let nowBefore: SchedulerTime?
        let nowAfter: SchedulerTime?
        let outcome: VirtualTimeRunOutcome?
        /// The `run()` that settles the program on virtual time, after its last step.
        let isFinal: Bool
    }

    private struct State {
        var starts: [Start] = []
        var ends: [ProgramTask: Int] = [:]
        var scheduled: [ProgramTask: Scheduled] = [:]
        var cancels: [Cancel] = []
        var drives: [Drive] = []
        var running: [ProgramTask: Int] = [:]
        var settledAt: Int?
    }

    private let state = Locked(State())
    private let counter = Atomic<Int>(0)
    let driving = Atomic<Bool>(false)

    func next() -> Int { counter.add(1, ordering: .acquiringAndReleasing).newValue }

    func began(
        _ task: ProgramTask, tick: Int, now: SchedulerTime?, currentIsScheduler: Bool, onScheduleStack: Bool
    ) {
        let whileDriven = driving.load(ordering: .acquiring)
        state.withLock { state in
            let others = state.running.filter { $0.key != task && $0.value > 0 }.map(\.key).sorted()
            let own = state.running[task, default: 0]
            state.running[task, default: 0] += 1
            state.starts.append(
                Start(
                    task: task, tick: tick, sequence: next(), now: now, others: others, ownTicksRunning: own,
                    currentIsScheduler: currentIsScheduler, onScheduleStack: onScheduleStack,
                    whileDriven: whileDriven))
        }
    }

    func ended(_ task: ProgramTask) {
        state.withLock { state in
            state.running[task, default: 1] -= 1
            state.ends[task] = next()
        }
    }

    func scheduled(
        _ task: ProgramTask, deadline: SchedulerTime?, callNow: SchedulerTime?, by producer: ProgramTask?,
        interval: Duration? = nil
    ) {
        state.withLock {
            $0.scheduled[task] = Scheduled(
                task: task, sequence: next(), deadline: deadline, callNow: callNow, producer: producer,
                interval: interval)
        }
    }

    /// Cancels `handle` (nil: not scheduled yet), numbering the call's start and its return.
    func cancel(_ target: ProgramTask, by: ProgramTask?, _ handle: (any Cancellable)?) {
        let callSequence = next()
        let result = handle?.cancel()
        let cancel = Cancel(target: target, by: by, result: result, callSequence: callSequence, sequence: next())
        state.withLock { $0.cancels.append(cancel) }
    }

    func drove(_ drive: Drive) { state.withLock { $0.drives.append(drive) } }

    /// Numbers the moment before the program is asked whether it settled (real time); the last mark stands. A task
    /// recorded as scheduled after it was not waited for: only a task the program may stop waiting for (a cancel
    /// answered it) can still run then and schedule it.
    func markSettling() {
        let mark = next()
        state.withLock { $0.settledAt = mark }
    }

    /// The last ``markSettling()`` (nil on virtual time, whose final `run()` settles everything).
    var settledAt: Int? { state.withLock { $0.settledAt } }

    var starts: [Start] { state.withLock { $0.starts } }
    var ends: [ProgramTask: Int] { state.withLock { $0.ends } }
    var scheduledTasks: [ProgramTask: Scheduled] { state.withLock { $0.scheduled } }
    var cancels: [Cancel] { state.withLock { $0.cancels } }
    var drives: [Drive] { state.withLock { $0.drives } }
}
