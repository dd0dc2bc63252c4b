@_spi(Explorer) import SchedulerKit

/// What the virtual-time engine asks to choose among its ready work: numbers each task in the order it first had a
/// job ready, as the job becomes ready (so a trace names tasks the same way in every replay, whatever their ids),
/// and asks the schedule's chooser. It sees each ready job once, when it becomes ready, so a chooser pays O(log n) a
/// step, not a scan.
// @unchecked Sendable: the engine calls `choose` and `note` only with its state lock held, and `taskNumbers` is read
// under the same lock (`VirtualTimeEngine.withChooserLocked`), so one thread at a time touches it.
final class StrategyChooser: ReadyWorkChooser, @unchecked Sendable {
    let chooser: any ScheduleChooser
    /// The ready list's positions up to here have been seen.
    private var seen = 0
    /// Task numbers by task id, and how many numbers were given.
    private var numbers: [UInt64: Int] = [:]
    private var count = 0

    init(_ strategy: ExplorationStrategy, seed: UInt64, choices: [Int] = []) {
        chooser = strategy.strategy.makeChooser(seed: seed, choices: choices)
    }

    func choose(in ready: inout ReadyList, step: Int) -> Int {
        let firstNew = seen
        seen = ready.endPosition
        return chooser.choose(among: ReadyJobs(ready, firstNew: firstNew), step: step).id
    }

    /// The number of each task seen, by task id.
    var taskNumbers: [UInt64: Int] { numbers }

    /// A job's task by its number; other work (a job of no task, a closure, a tick) counts as a task of its own.
    func note(_ carried: ScheduledWork.Carried) -> Int {
        count += 1
        switch carried {
        case .actorJob(let task) where task != 0, .taskJob(let task) where task != 0,
            .runtimeJob(let task) where task != 0:
            if let number = numbers[task] {
                count -= 1
                return number
            }
            numbers[task] = count
            return count
        default:
            // Seen once and never again: numbered without being remembered.
            return count
        }
    }
}
