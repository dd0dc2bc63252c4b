import Foundation
import SchedulerBench

/// How far a whole sweep of backends moved between runs, taken out of each backend's figure (`Docs/Statistics.md`,
/// "A sweep that moves as a whole").
///
/// ``RoundLevels`` takes the machine's level out of the rounds of one run. Between runs the same happens on a larger
/// scale: comparing the reference run of `285dc94` with the one of `39601ec` (the same schedulers), W2 with 1 and 2
/// producers ran 1.3–2.5x slower on *every* backend in the second run. A stored comparison then sees a difference on
/// each backend that none of them made.
///
/// The backends of one cell that share a compared statistic (their medians, or their ratios to their references) form
/// a *sweep*. Across runs (K calibration runs, or the 2 runs of a comparison):
/// - the sweep's level in run *r* is the median over its backends of how far their log figure in *r* lies from their
///   own mean over the runs;
/// - a backend's *levelled* figure in run *r* is its log figure less the level of the *other* backends (its own change
///   is not in its level). Between two runs that is its log ratio less the median log ratio of the others.
///
/// So a change to one backend shows whole in its levelled figure, while a change that moves most of a sweep (the
/// machine, or code every backend shares) shows in the sweep's level instead, which a comparison judges on its own
/// line. A sweep needs ``RoundLevels/minimumBackends`` backends with positive figures; smaller ones are not levelled.
package enum SweepLevel {
    /// Each member's log figures (one per run) with the other members' level taken out, and the sweep's level in each
    /// run (the median over all members of their centred log figures); nil for a sweep too small to level. Every
    /// member has one figure per run, run *r* of each from the same run.
    package static func split(_ logs: [[Double]]) -> (levelled: [[Double]], level: [Double])? {
        guard logs.count >= RoundLevels.minimumBackends, let runs = logs.first?.count, runs >= 2,
            logs.allSatisfy({ $0.count == runs })
        else { return nil }
        let centred = logs.map(centre)
        let levelled = logs.indices.map { member in
            let others = logs.indices.filter { $0 != member }
            return (0..<runs).map { run in logs[member][run] - Statistics.median(others.map { centred[$0][run] }) }
        }
        return (levelled, (0..<runs).map { run in Statistics.median(centred.map { $0[run] }) })
    }

    private static func centre(_ values: [Double]) -> [Double] {
        let mean = values.reduce(0, +) / Double(values.count)
        return values.map { $0 - mean }
    }
}

/// A sweep: the backends of one cell whose compared figures share a statistic.
package struct SweepKey: Sendable, Hashable, CustomStringConvertible {
    package var allocator: AllocatorChoice
    package var workload: WorkloadID
    package var parameters: Parameters
    package var metric: Metric
    package var statistic: ComparedFigure.Statistic

    package init(_ cell: CellKey, statistic: ComparedFigure.Statistic) {
        allocator = cell.allocator
        workload = cell.workload
        parameters = cell.parameters
        metric = cell.metric
        self.statistic = statistic
    }

    /// The sweeps whose spreads moderate one another (``Calibration``): one workload, metric, statistic and allocator.
    var family: String { "\(workload) \(metric) \(statistic.rawValue) \(allocator.rawValue)" }

    package var description: String {
        "\(workload) \(parameters) \(metric) \(statistic == .median ? "medians" : "ratios to reference") "
            + "[\(allocator.rawValue)]"
    }
}
