@_spi(Explorer) import SchedulerKit

/// The jobs ready at one step of a schedule, as a chooser sees them: in the order they became ready (rank 0 first),
/// each with its task. Looking a job up by rank or by id costs O(log n) in the jobs ready.
public struct ReadyJobs {
    private let list: ReadyList
    /// Where the jobs new since the chooser's last step start.
    private let firstNew: Int

    init(_ list: ReadyList, firstNew: Int) {
        self.list = list
        self.firstNew = firstNew
    }

    /// How many jobs are ready (at least one when a chooser is asked).
    public var count: Int { list.count }

    /// The job of rank `rank`: 0 is the one that became ready first.
    public func job(ofRank rank: Int) -> ReadyJob {
        let position = list.position(ofRank: rank)
        return ReadyJob(id: position, task: list.note(at: position)!)
    }

    /// The job `id`, or nil once it has run.
    public func job(_ id: Int) -> ReadyJob? {
        list.note(at: id).map { ReadyJob(id: id, task: $0) }
    }

    /// How many ready jobs became ready before `job`.
    public func rank(of job: ReadyJob) -> Int { list.rank(ofPosition: job.id) }

    /// The ids of the jobs that became ready since the chooser's last step, in that order: a chooser that keeps the
    /// ready jobs in an order of its own (PCT's priorities) takes each in once, through ``job(_:)``. Ids, not jobs:
    /// a sequence of jobs would hold a copy of the ready list, two counted references a step.
    public var newJobIDs: Range<Int> { firstNew..<list.endPosition }
}
