/// One way of choosing, at each step of a schedule, which ready job runs: first in first out, random, PCT,
/// exhaustive, or one of your own. A strategy is a value (its parameters); each schedule gets a fresh chooser from
/// it, with state of its own, which sees the ready jobs and picks one.
///
/// Semantics first: a chooser sees only the ready jobs, in the order they became ready, and the task each belongs
/// to; given the same seed (or the same choices) and the same body, it makes the same choices, so a schedule is
/// replayed by its seed (a *seeded* strategy) or by the choices it made (a *systematic* one).
public protocol SchedulingStrategy: Sendable, CustomStringConvertible {
    /// The strategy as a replay line writes it and a crash note is read back: ``StrategySpelling``.
    var spelling: StrategySpelling { get }
    /// The strategy written as `spelling`, or nil if `spelling` names another strategy or parameters it cannot take.
    init?(spelling: StrategySpelling)
    /// Whether a schedule is named by the choices it made (and replayed by them), rather than by its seed.
    var isSystematic: Bool { get }
    /// A fresh chooser for one schedule: `seed` is the schedule's, `choices` (a systematic strategy's) what its first
    /// choices take.
    func makeChooser(seed: UInt64, choices: [Int]) -> any ScheduleChooser
}

extension SchedulingStrategy {
    public var isSystematic: Bool { false }
}

/// The choices of one schedule: what a strategy keeps while a schedule runs (a generator, priorities, the choices
/// made so far).
public protocol ScheduleChooser: AnyObject {
    /// The job to run next among `ready` (at least one); `step` counts the schedule's choices from 1.
    func choose(among ready: ReadyJobs, step: Int) -> ReadyJob
    /// A systematic strategy's: the choices that run this schedule again (up to its last that left the default).
    var choicesToReplay: [Int] { get }
    /// A systematic strategy's: the choices of the schedule after this one in its walk, or nil once every schedule
    /// has run. A seeded strategy's schedules never run out: nil.
    var nextSchedule: [Int]? { get }
}

extension ScheduleChooser {
    public var choicesToReplay: [Int] { [] }
    public var nextSchedule: [Int]? { nil }
}

/// One ready job as a chooser sees it: which it is, and the task it belongs to.
public struct ReadyJob: Sendable, Hashable {
    /// The job's place in the order jobs became ready: it keeps it until it runs, so a chooser may remember it.
    public let id: Int
    /// Its task's number in this schedule (1, 2, … in the order tasks first had a job ready; what a trace shows as
    /// `t3`). Work of no task counts as a task of its own.
    public let task: Int
}
