/// A row is *out of reach* for a pair of global executors when nothing on it is left for a global executor to decide,
/// so neither can be ahead on it but by noise. Either of two things shows it, and the contest says which:
/// - its **job count** (``GlobalExecutorJobs``): on both executors the timed task was alone and sent fewer than one job
///   in ``GlobalJobCount/strayJobsPerUnit`` units through the global executor: the row's work passed neither. A row
///   that starts a task beside the timed one is never shown so, however few jobs it sends: where that task runs
///   decides the row;
/// - its **ideal** (``GlobalExecutorIdealLine``): the row's one decision made by the workload at its best (its ideal
///   configuration, ``Workload/ideal``) moved neither executor's figure beyond the contest's margin, process by
///   process, and the two were the same on the row or on its ideal.
///
/// `CONTEST.md`, `REPORT.md` and the contest's files all mark a row through ``of(_:champion:challenger:jobs:ideals:)``.
enum OutOfReach: String, Sendable {
    case jobCount = "job count"
    case ideal

    /// The definition, as the contest's pages give it.
    static var definition: String {
        "A row is *out of reach* for a pair of global executors when nothing on it is left for a global executor to "
            + "decide, so neither can be ahead on it but by noise. Its *job count* shows it where, on both, the timed "
            + "task was alone and sent fewer than one job in \(Int(1 / GlobalJobCount.strayJobsPerUnit)) units through "
            + "the global executor (a row that starts a task beside the timed one never is: where that task runs "
            + "decides the row); its *ideal* shows it where the row's one decision, made by the workload at its best "
            + "(W25 `consumer=after`: the consumer started once the burst is written), moved neither side's figure "
            + "beyond the contest's margin, and the two were the same on the row or on its ideal."
    }

    /// `ideals.csv`'s column that says whether a row's ideal shows it out of reach.
    static let column = "out_of_reach"

    /// Whether, and by what, the row `key` is out of reach for `champion` and `challenger`: by the contest's job
    /// counts (nil: none counted), else by the rows whose ideal shows it for that challenger.
    static func of(
        _ key: GlobalJobCount.Key, champion: String, challenger: String, jobs: GlobalExecutorJobs?,
        ideals: Set<GlobalJobCount.Key>
    ) -> OutOfReach? {
        let counted = [champion, challenger].map { jobs?.count($0, workload: key.workload, parameters: key.parameters) }
        if counted.allSatisfy({ $0?.leftNothingToDecide == true }) { return .jobCount }
        return ideals.contains(key) ? .ideal : nil
    }

    /// What a verdict gains where a row is out of reach: ", out of reach (job count)", emphasised in Markdown pages.
    static func mark(_ reach: OutOfReach?, emphasis: Bool = false) -> String {
        guard let reach else { return "" }
        let words = emphasis ? "*out of reach*" : "out of reach"
        return ", \(words) (\(reach.rawValue))"
    }
}
