import Foundation
import SchedulerBench

/// `bench compare A B`: how each cell of run B differs from run A.
///
/// Each cell's figure is its paired ratio to the reference row of its own run where it has one, else its median
/// (``ComparedFigure``). A difference is marked only when it is larger than what runs of the same build on this
/// machine differ by (the calibrated noise bound, ``Calibration``), the two runs' own intervals do not overlap, *and*, in a
/// sweep large enough to level (``SweepLevel``), it stays beyond its calibrated noise bound once the other backends' median
/// difference is taken out: what moved every backend alike is the sweep's, reported on the sweep's own line
/// (``sweeps``). Without a calibration of the machine nothing measured is marked: the comparison says so instead of
/// guessing. Exact counts (allocations, instructions) are compared as counts: a difference beyond the count's tolerance
/// (``Metric/countTolerance(around:)``) is marked, unless the calibration saw that count change between runs of one
/// build (``Calibration/Entry/varies(as:)``): such a count is judged as a measured figure, against its noise bound.
package struct Comparison: Sendable {
    package enum Verdict: String, Sendable {
        case better, worse
        case withinNoise = "within noise"
        /// Measured, but this machine has no calibration for such runs: no noise bound to judge against.
        case uncalibrated = "not calibrated"
    }

    package struct Line: Sendable {
        package let before: SummaryRow
        package let after: SummaryRow
        package let figureBefore: ComparedFigure
        package let figureAfter: ComparedFigure
        /// B's figure / A's.
        package let ratio: Double
        /// The calibrated noise bound of the cell, as a fraction (nil: exact, or no calibration).
        package let noiseBound: Double?
        /// B/A with the median B/A of the other backends of the sweep divided out (nil: a sweep too small to level).
        package let ownRatio: Double?
        /// The calibrated noise bound of ``ownRatio``, as a fraction.
        package let ownNoiseBound: Double?
        package let verdict: Verdict

        /// A figure that means the same on another machine: a ratio to the run's own reference, or an exact count.
        var travels: Bool {
            before.metric.isExactCount
                || (figureBefore.statistic == .ratioToReference && figureAfter.statistic == .ratioToReference)
        }
    }

    /// A sweep: how far its backends moved together (the median of their B/A), against the calibrated spread of that
    /// level between runs of one build.
    package struct Sweep: Sendable {
        package let key: SweepKey
        package let backends: Int
        package let ratio: Double
        package let noiseBound: Double?
        package let verdict: Verdict
    }

    package let lines: [Line]
    /// Every sweep large enough to level, in the order of its first line.
    package let sweeps: [Sweep]
    /// Cells present in only one of the runs.
    package let onlyBefore: [CellKey]
    package let onlyAfter: [CellKey]
    package let calibration: Calibration?
    /// Why the runs' measured figures are not judged at all (different machines, scales or CPU sets), if they are not.
    package let incomparable: String?
    /// Runs of two machines: only ratios to each run's own reference rows (and exact counts) are listed; this many
    /// cells with a median only were left out, since two machines' absolute figures differ by the machines.
    package let mediansLeftOut: Int

    package init(before: [SummaryRow], after: [SummaryRow], calibration: Calibration?) {
        let afterByKey = Dictionary(after.map { ($0.key, $0) }) { first, _ in first }
        let beforeKeys = Set(before.map(\.key))
        onlyBefore = before.map(\.key).filter { afterByKey[$0] == nil }
        onlyAfter = after.map(\.key).filter { !beforeKeys.contains($0) }
        let incomparable = Self.incomparable(before.first?.metadata, after.first?.metadata)
        self.incomparable = incomparable
        let usable = incomparable == nil ? calibration : nil
        self.calibration = usable
        let pairs = before.compactMap { row in afterByKey[row.key].map { (row, $0) } }
        let sweepOf = Self.sweepRatios(pairs)
        let all = pairs.map { before, after in
            let sweep = sweepOf[before.key]
            return Self.line(
                before, after, entry: usable?.cells[before.key],
                own: sweep.map { ($0.ownRatio, usable?.levelledCells[before.key]) })
        }
        let ratiosOnly = Self.differentMachines(before.first?.metadata, after.first?.metadata)
        lines = ratiosOnly ? all.filter(\.travels) : all
        mediansLeftOut = all.count - lines.count
        var seen: Set<SweepKey> = []
        sweeps = lines.compactMap { line -> Sweep? in
            guard let sweep = sweepOf[line.before.key], seen.insert(sweep.key).inserted else { return nil }
            let noiseBound = usable?.sweeps[sweep.key]?.noiseBound
            var verdict = Verdict.uncalibrated
            if let noiseBound {
                let moved = abs(Foundation.log(sweep.ratio)) > Foundation.log(1 + noiseBound)
                let faster = (sweep.ratio < 1) == line.before.metric.lowerIsBetter
                verdict = moved ? (faster ? .better : .worse) : .withinNoise
            }
            return Sweep(
                key: sweep.key, backends: sweep.backends, ratio: sweep.ratio, noiseBound: noiseBound, verdict: verdict)
        }
    }

    /// For each measured cell in a sweep large enough to level: its sweep, the sweep's median B/A, and the cell's
    /// B/A less the other backends' median.
    private typealias SweepRatio = (key: SweepKey, backends: Int, ratio: Double, ownRatio: Double)

    private static func sweepRatios(_ pairs: [(SummaryRow, SummaryRow)]) -> [CellKey: SweepRatio] {
        var logRatios: [SweepKey: [(CellKey, Double)]] = [:]
        for (before, after) in pairs where !before.metric.isExactCount {
            let (a, b) = (ComparedFigure(before), ComparedFigure(after))
            guard a.statistic == b.statistic, a.value > 0, b.value > 0 else { continue }
            logRatios[SweepKey(before.key, statistic: a.statistic), default: []].append(
                (before.key, Foundation.log(b.value / a.value)))
        }
        var result: [CellKey: SweepRatio] = [:]
        for (sweep, members) in logRatios {
            // Between two runs a member's levelled log ratio is its own less the others' median (SweepLevel).
            let logs = members.map { [0, $0.1] }
            guard let (levelled, level) = SweepLevel.split(logs) else { continue }
            for (member, own) in zip(members, levelled) {
                result[member.0] = (
                    sweep, members.count, Foundation.exp(level[1] - level[0]), Foundation.exp(own[1] - own[0])
                )
            }
        }
        return result
    }

    /// Both runs have a machine fingerprint, and they differ.
    static func differentMachines(_ a: RunMetadata?, _ b: RunMetadata?) -> Bool {
        guard let a, let b, !a.machine.isEmpty, !b.machine.isEmpty else { return false }
        return a.machine != b.machine
    }

    /// Runs of different machines, scales or CPU sets share no noise bound.
    static func incomparable(_ a: RunMetadata?, _ b: RunMetadata?) -> String? {
        guard let a, let b else { return nil }
        if a.machine.isEmpty || b.machine.isEmpty {
            return "a run predates machine fingerprints (made before calibrations existed)"
        }
        if a.machine != b.machine { return "the runs were made on different machines (\(a.machine) / \(b.machine))" }
        if a.scale != b.scale { return "the runs have different scales (\(a.scale) / \(b.scale))" }
        if Calibration.cpuKey(a) != Calibration.cpuKey(b) {
            return "the runs ran on different CPUs (\(Calibration.cpuKey(a)) / \(Calibration.cpuKey(b)))"
        }
        return nil
    }

    static func line(
        _ before: SummaryRow, _ after: SummaryRow, entry: Calibration.Entry?,
        own: (ratio: Double, entry: Calibration.Entry?)? = nil
    ) -> Line {
        let (a, b) = (ComparedFigure(before), ComparedFigure(after))
        let ratio = a.value == 0 ? (b.value == 0 ? 1 : .infinity) : b.value / a.value
        let lowerIsBetter = before.metric.lowerIsBetter
        let direction: Verdict = (b.value < a.value) == lowerIsBetter ? .better : .worse
        if before.metric.isExactCount, entry?.varies(as: before.metric) != true {
            let same = before.metric.sameCount(a.value, b.value)
            return Line(
                before: before, after: after, figureBefore: a, figureAfter: b, ratio: ratio, noiseBound: nil,
                ownRatio: nil, ownNoiseBound: nil, verdict: same ? .withinNoise : direction)
        }
        guard let entry, a.statistic == b.statistic else {
            return Line(
                before: before, after: after, figureBefore: a, figureAfter: b, ratio: ratio, noiseBound: nil,
                ownRatio: own?.ratio, ownNoiseBound: nil, verdict: .uncalibrated)
        }
        let bound = entry.noiseBound
        let beyondNoise =
            entry.onLogScale ? (ratio > 1 + bound || ratio < 1 / (1 + bound)) : abs(b.value - a.value) > bound
        var intervalsApart = true
        if let x = a.estimate, let y = b.estimate { intervalsApart = x.high < y.low || y.high < x.low }
        // The backend's own part of the difference must be beyond its own noise bound too; a sweep the calibration could
        // not level (a cell that lost backends since) keeps the first two tests only.
        var ownBeyond = true
        if let own, let ownEntry = own.entry {
            ownBeyond = abs(Foundation.log(own.ratio)) > Foundation.log(1 + ownEntry.noiseBound)
        }
        return Line(
            before: before, after: after, figureBefore: a, figureAfter: b, ratio: ratio,
            noiseBound: entry.onLogScale ? bound : nil, ownRatio: own?.ratio,
            ownNoiseBound: own?.entry?.noiseBound,
            verdict: beyondNoise && intervalsApart && ownBeyond ? direction : .withinNoise)
    }

    package func count(_ verdict: Verdict) -> Int { lines.filter { $0.verdict == verdict }.count }
}
