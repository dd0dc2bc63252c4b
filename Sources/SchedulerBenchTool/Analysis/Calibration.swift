import Foundation
import SchedulerBench
import SchedulerConformance

/// How far figures move between runs of one build on one machine, measured by `bench calibrate`
/// (`Docs/Statistics.md`, "Between runs").
///
/// A run's own intervals know only the noise inside the run; two runs of the same code also differ by what changed
/// between them (which threads Dispatch kept, what else the host ran). `bench calibrate` runs the same binary several
/// times and keeps, for every compared figure (``ComparedFigure``) and every goal, the spread of its logarithm across
/// those runs. The spread of a cell is moderated towards the pooled spread of its family (same workload, metric,
/// statistic and kind of backend), so that a few runs give usable bounds without trusting one cell's luck.
package struct Calibration: Sendable {
    /// What a figure's spread across runs allows.
    package struct Entry: Sendable, Equatable {
        /// Standard deviation across runs: of ln(figure), or of the figure itself where one is zero or negative.
        package var deviation: Double
        package var onLogScale: Bool
        package var freedom: Double
        /// The figures of the calibration runs, for the record.
        package var values: [Double]

        /// The noise bound: two runs' figures differ by more than this in 1 % of pairs, so `bench compare` marks above it
        /// (as a factor − 1 on the log scale, else in the figure's unit).
        package var noiseBound: Double {
            let bound = StudentT.quantile995(freedom) * 2.0.squareRoot() * deviation
            return onLogScale ? Foundation.exp(bound) - 1 : bound
        }

        /// Whether an exact count of `metric` came out different in the calibration's runs (beyond the count's
        /// tolerance): then it depends on timing (NIO's thread pool, awaited from the global executor, counted 8.8 and
        /// 9.8 allocations per task in two reference runs), and a comparison judges it as a measured figure.
        package func varies(as metric: Metric) -> Bool {
            guard let low = values.min(), let high = values.max() else { return false }
            return !metric.sameCount(low, high)
        }

        /// One run's figure lies this close to the long-run figure 95 % of the time: how far a goal's interval
        /// widens (as a factor − 1 on the log scale, else in the figure's unit).
        package var runMargin: Double {
            let bound = StudentT.quantile975(freedom) * deviation
            return onLogScale ? Foundation.exp(bound) - 1 : bound
        }

        /// Where the long-run figure lies, given one run's `estimate`: within the run margin of the run's figure,
        /// and no closer than the run's own interval says. The wider of the two on each side, not their sum: the
        /// margin is the spread of whole runs' figures, so it already holds the noise inside a run, and adding the
        /// run's own interval to it would count that noise twice.
        package func widen(_ estimate: Estimate) -> Estimate {
            let (low, high) =
                onLogScale
                ? (estimate.value / (1 + runMargin), estimate.value * (1 + runMargin))
                : (estimate.value - runMargin, estimate.value + runMargin)
            return Estimate(value: estimate.value, low: min(estimate.low, low), high: max(estimate.high, high))
        }
    }

    package struct GoalKey: Sendable, Hashable {
        package var goal: GoalID
        package var allocator: AllocatorChoice
    }

    package var machine: String
    package var scale: String
    package var cpus: String
    package var commit: String
    package var runs: Int
    package var cells: [CellKey: Entry]
    /// A cell's figure less the level of the other backends of its sweep (``SweepLevel``), for the cells whose sweep
    /// is large enough to level.
    package var levelledCells: [CellKey: Entry]
    /// How far a whole sweep's level moves between runs.
    package var sweeps: [SweepKey: Entry]
    package var goals: [GoalKey: Entry]
    /// What everything above is computed from: each figure in every calibration run (what the file keeps).
    package let cellFigures: [CellKey: Figures]
    package let goalFigures: [GoalKey: [Double]]

    /// A cell's figure in each calibration run, and which figure it is.
    package struct Figures: Sendable, Equatable {
        package var values: [Double]
        package var statistic: ComparedFigure.Statistic
    }

    /// Weight, in runs' worth of degrees of freedom, of a family's pooled spread in each cell's moderated spread.
    static let poolWeight = 4.0

    /// The calibration of `runs` (each one run's rows and rounds), all of one machine, scale and CPU set.
    package init(runs: [RunData], goals: [Goal] = Goal.all) throws {
        guard runs.count >= 2, let first = runs.first?.summary.first?.metadata else {
            throw BenchError.setting("a calibration needs at least 2 runs")
        }
        var cells: [CellKey: Figures] = [:]
        var goalValues: [GoalKey: [Double]] = [:]
        for run in runs {
            for row in run.summary {
                let figure = ComparedFigure(row)
                cells[row.key, default: Figures(values: [], statistic: figure.statistic)].values.append(figure.value)
            }
            for allocator in run.allocators {
                for result in GoalEvaluation.evaluate(goals, in: run, allocator: allocator, calibration: nil) {
                    guard let value = result.estimate?.value, result.goal.measure.isMeasured else { continue }
                    goalValues[GoalKey(goal: result.goal.id, allocator: allocator), default: []].append(value)
                }
            }
        }
        self.init(
            machine: first.machine, scale: first.scale, cpus: Self.cpuKey(first), commit: first.gitCommit,
            runs: runs.count, cellFigures: cells.filter { $0.value.values.count == runs.count },
            goalFigures: goalValues.filter { $0.value.count == runs.count })
    }

    /// The calibration of figures measured before (a file's `values`): the spreads are computed with this build's
    /// method, so a better method needs no new runs.
    package init(
        machine: String, scale: String, cpus: String, commit: String, runs: Int, cellFigures: [CellKey: Figures],
        goalFigures: [GoalKey: [Double]]
    ) {
        self.machine = machine
        self.scale = scale
        self.cpus = cpus
        self.commit = commit
        self.runs = runs
        self.cellFigures = cellFigures
        self.goalFigures = goalFigures
        // A count lends nothing to others and borrows nothing: most counts never move, and one that does (see
        // ``Entry/varies(as:)``) moves for reasons of its own. A figure borrows only from backends that run work the
        // way its own does (``Backend/Execution``): a direct call does not move when every hand-off does.
        let families = Dictionary(grouping: cellFigures.keys) { key in
            key.metric.isExactCount
                ? key.description
                : SweepKey(key, statistic: cellFigures[key]!.statistic).family + " "
                    + Backend.execution(of: key.backend).rawValue
        }
        cells = Self.moderated(cellFigures.mapValues(\.values), families: Array(families.values))
        let (levelled, sweepLevels) = Self.sweepFigures(cellFigures)
        levelledCells = Self.moderated(levelled, families: families.values.map { $0.filter { levelled[$0] != nil } })
        let sweepFamilies = Dictionary(grouping: sweepLevels.keys, by: \.family)
        sweeps = Self.moderated(sweepLevels, families: Array(sweepFamilies.values))
        // Goals are unrelated figures: each keeps its own spread.
        goals = Self.moderated(goalFigures, families: goalFigures.keys.map { [$0] })
    }

    /// Each cell's figures with its sweep's level taken out, and each sweep's level, run by run (as factors, so that
    /// they are spread on the log scale like the figures).
    private static func sweepFigures(_ figures: [CellKey: Figures]) -> ([CellKey: [Double]], [SweepKey: [Double]]) {
        let positive = figures.filter { !$0.key.metric.isExactCount && $0.value.values.allSatisfy { $0 > 0 } }
        let sweeps = Dictionary(grouping: positive.keys) { SweepKey($0, statistic: positive[$0]!.statistic) }
        var levelled: [CellKey: [Double]] = [:]
        var levels: [SweepKey: [Double]] = [:]
        for (sweep, members) in sweeps {
            let logs = members.map { positive[$0]!.values.map { Foundation.log($0) } }
            guard let (adjusted, level) = SweepLevel.split(logs) else { continue }
            for (member, values) in zip(members, adjusted) { levelled[member] = values.map { Foundation.exp($0) } }
            levels[sweep] = level.map { Foundation.exp($0) }
        }
        return (levelled, levels)
    }

    /// Each key's spread, moderated towards the spreads of the other members of its family: their median variance,
    /// so that one very noisy member does not inflate the quiet ones. A family of one lends nothing, and its member
    /// keeps its own spread with its own few degrees of freedom.
    private static func moderated<Key: Hashable>(_ figures: [Key: [Double]], families: [[Key]]) -> [Key: Entry] {
        var entries: [Key: Entry] = [:]
        for family in families {
            let own = family.map { key -> (key: Key, deviation: Double, onLog: Bool) in
                let values = figures[key]!
                let onLog = values.allSatisfy { $0 > 0 }
                return (key, deviation(onLog ? values.map { Foundation.log($0) } : values), onLog)
            }
            for member in own {
                let runs = Double(figures[member.key]!.count)
                let others = own.filter { $0.key != member.key && $0.onLog }
                guard member.onLog, !others.isEmpty else {
                    entries[member.key] = Entry(
                        deviation: member.deviation, onLogScale: member.onLog, freedom: runs - 1,
                        values: figures[member.key]!)
                    continue
                }
                let pooled = Statistics.median(others.map { $0.deviation * $0.deviation })
                // The pool weighs as much as its members' degrees of freedom, up to `poolWeight`.
                let weight = min(poolWeight, Double(others.count) * (runs - 1))
                let variance =
                    ((runs - 1) * member.deviation * member.deviation + weight * pooled) / (runs - 1 + weight)
                entries[member.key] = Entry(
                    deviation: variance.squareRoot(), onLogScale: true, freedom: runs - 1 + weight,
                    values: figures[member.key]!)
            }
        }
        return entries
    }

    static func deviation(_ values: [Double]) -> Double {
        guard values.count > 1 else { return 0 }
        let mean = values.reduce(0, +) / Double(values.count)
        return (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count - 1)).squareRoot()
    }

    /// The CPU set a calibration holds for: the CPUs, and whether `--cpus` pinned the run.
    static func cpuKey(_ metadata: RunMetadata) -> String { metadata.cpus + (metadata.pinned ? " pinned" : "") }

    /// Whether this calibration holds for runs with `metadata`.
    package func applies(to metadata: RunMetadata) -> Bool {
        metadata.machine == machine && metadata.scale == scale && Self.cpuKey(metadata) == cpus && !machine.isEmpty
    }
}

extension Backend {
    /// How the backend with this id runs its work (``execution``), built in or registered: what a calibration's
    /// families are split by. One this process does not know (renamed since a stored run) counts as a hand-off, as
    /// most backends are.
    static func execution(of id: BackendID) -> Execution { withID(id)?.execution ?? .handOff }
}
