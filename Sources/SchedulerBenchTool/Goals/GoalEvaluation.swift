import SchedulerBench
import ToolSupport

/// A goal judged on one run: met, not met, or undecided when the figure's interval straddles the limit.
package struct GoalResult: Sendable {
    package enum Verdict: String, Sendable {
        case met
        case notMet = "not met"
        /// The interval straddles the limit: this run cannot tell. More rounds, `--cpus`, or a quieter machine.
        case undecided
        case notMeasured = "not measured"
    }

    package let goal: Goal
    /// The figure and its interval within the run (nil when a cell is missing).
    package let estimate: Estimate?
    /// The interval the verdict rests on: the run's own, widened to the calibrated run-to-run margin if there is one.
    package let judged: Estimate?
    /// True when a calibration of this machine widened the interval.
    package let calibrated: Bool
    package let verdict: Verdict
    /// The goal's floor in the same run, with its interval (nil: the goal has none, or its cells are missing).
    package let floor: Estimate?
}

/// Judges goals on a run's rows and rounds.
package enum GoalEvaluation {
    package static func evaluate(
        _ goals: [Goal] = Goal.all, in run: RunData, allocator: AllocatorChoice,
        calibration: Calibration?
    ) -> [GoalResult] {
        goals.filter { $0.allocator == allocator }.map { goal in
            let floor = goal.floor.flatMap { figure($0.measure, in: run, allocator: allocator) }
            guard let estimate = figure(goal.measure, in: run, allocator: allocator) else {
                return GoalResult(
                    goal: goal, estimate: nil, judged: nil, calibrated: false, verdict: .notMeasured, floor: floor)
            }
            let margin = calibration?.goals[Calibration.GoalKey(goal: goal.id, allocator: allocator)]
            let judged = goal.measure.isMeasured ? (margin?.widen(estimate) ?? estimate) : estimate
            return GoalResult(
                goal: goal, estimate: estimate, judged: judged, calibrated: margin != nil,
                verdict: verdict(judged, goal), floor: floor)
        }
    }

    static func verdict(_ interval: Estimate, _ goal: Goal) -> GoalResult.Verdict {
        if !goal.measure.isMeasured {
            // Counts are averages over many tasks: 1.0004 allocations is 1 (``Metric/countTolerance(around:)``).
            let tolerance = goal.measure.cells[0].metric.countTolerance(around: goal.limit)
            let keeps =
                goal.direction == .atMost
                ? interval.value <= goal.limit + tolerance
                : interval.value >= goal.limit - tolerance
            return keeps ? .met : .notMet
        }
        switch goal.direction {
        case .atMost: return interval.high <= goal.limit ? .met : (interval.low > goal.limit ? .notMet : .undecided)
        case .atLeast: return interval.low >= goal.limit ? .met : (interval.high < goal.limit ? .notMet : .undecided)
        }
    }

    /// The goal's figure with its interval within the run.
    static func figure(_ measure: Goal.Measure, in run: RunData, allocator: AllocatorChoice) -> Estimate? {
        func row(_ cell: Goal.Cell) -> SummaryRow? {
            run.row(cell.backend, cell.workload, cell.metric, allocator: allocator, parameters: cell.parameters)
        }
        switch measure {
        case .ratio(let a, let b):
            guard let top = row(a), let bottom = row(b) else { return nil }
            return top.parameters == bottom.parameters
                ? Statistics.pairedRatio(run.values(of: top), over: run.values(of: bottom))
                : Statistics.unpairedRatio(run.values(of: top), over: run.values(of: bottom))
        case .difference(let a, let b):
            guard let first = row(a), let second = row(b) else { return nil }
            return Statistics.pairedDifference(run.values(of: first), minus: run.values(of: second))
        case .median(let a):
            return row(a).map { Statistics.medianEstimate(run.values(of: $0)) }
        case .countDifference(let a, let b):
            guard let first = row(a), let second = row(b) else { return nil }
            return .exact(first.summary.median.value - second.summary.median.value)
        case .count(let a):
            return row(a).map { .exact($0.summary.median.value) }
        }
    }
}

extension Goal {
    /// The figure as people read it.
    package func present(_ value: Double) -> String {
        switch presentation {
        case .times: "\(Format.short(value))x"
        case .timesFaster: "\(Format.short(value))x faster"
        case .nanoseconds: "\(Format.short(value)) ns"
        case .millionsPerSecond: value > 0 ? "\(Format.short(1e3 / value)) M tasks/s" : "-"
        case .extraAllocations: "\(Format.short(value)) more"
        case .allocations: "\(Format.short(value)) allocations"
        }
    }

    /// The figure with its interval, "1.07x (1.02x–1.12x)".
    package func present(_ estimate: Estimate) -> String {
        guard estimate.low != estimate.high else { return present(estimate.value) }
        guard estimate.low.isFinite && estimate.high.isFinite else { return present(estimate.value) + " (no interval)" }
        // Rates invert: a low cost is a high rate.
        let (low, high) =
            presentation == .millionsPerSecond ? (estimate.high, estimate.low) : (estimate.low, estimate.high)
        return "\(present(estimate.value)) (\(present(low))–\(present(high)))"
    }
}
