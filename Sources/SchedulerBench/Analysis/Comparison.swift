/// `bench compare A B`: how each cell of run B differs from run A.
///
/// Each cell's figure is its paired ratio to the reference row of its own run where it has one, else its median
/// (``ComparedFigure``). A difference is marked only when it is larger than what runs of the same build on this
/// machine differ by (the calibrated floor, ``Calibration``) *and* the two runs' own intervals do not overlap. Without
/// a calibration of the machine nothing measured is marked: the comparison says so instead of guessing. Exact counts
/// (allocations, instructions) are compared as counts: a difference over 1 % is marked.
public struct Comparison: Sendable {
    public enum Verdict: String, Sendable {
        case better, worse
        case withinNoise = "within noise"
        /// Measured, but this machine has no calibration for such runs: no floor to judge against.
        case uncalibrated = "not calibrated"
    }

    public struct Line: Sendable {
        public let before: SummaryRow
        public let after: SummaryRow
        public let figureBefore: ComparedFigure
        public let figureAfter: ComparedFigure
        /// B's figure / A's.
        public let ratio: Double
        /// The calibrated floor of the cell, as a fraction (nil: exact, or no calibration).
        public let floor: Double?
        public let verdict: Verdict

        /// A figure that means the same on another machine: a ratio to the run's own reference, or an exact count.
        var travels: Bool {
            before.metric.isExactCount
                || (figureBefore.statistic == .ratioToReference && figureAfter.statistic == .ratioToReference)
        }
    }

    public let lines: [Line]
    /// Cells present in only one of the runs.
    public let onlyBefore: [CellKey]
    public let onlyAfter: [CellKey]
    public let calibration: Calibration?
    /// Why the runs' measured figures are not judged at all (different machines, scales or CPU sets), if they are not.
    public let incomparable: String?
    /// Runs of two machines: only ratios to each run's own reference rows (and exact counts) are listed; this many
    /// cells with a median only were left out, since two machines' absolute figures differ by the machines.
    public let mediansLeftOut: Int

    public init(before: [SummaryRow], after: [SummaryRow], calibration: Calibration?) {
        let afterByKey = Dictionary(after.map { ($0.key, $0) }) { first, _ in first }
        let beforeKeys = Set(before.map(\.key))
        onlyBefore = before.map(\.key).filter { afterByKey[$0] == nil }
        onlyAfter = after.map(\.key).filter { !beforeKeys.contains($0) }
        let incomparable = Self.incomparable(before.first?.metadata, after.first?.metadata)
        self.incomparable = incomparable
        let usable = incomparable == nil ? calibration : nil
        self.calibration = usable
        let all = before.compactMap { row in
            afterByKey[row.key].map { Self.line(row, $0, entry: usable?.cells[row.key]) }
        }
        let ratiosOnly = Self.differentMachines(before.first?.metadata, after.first?.metadata)
        lines = ratiosOnly ? all.filter(\.travels) : all
        mediansLeftOut = all.count - lines.count
    }

    /// Both runs have a machine fingerprint, and they differ.
    static func differentMachines(_ a: RunMetadata?, _ b: RunMetadata?) -> Bool {
        guard let a, let b, !a.machine.isEmpty, !b.machine.isEmpty else { return false }
        return a.machine != b.machine
    }

    /// Runs of different machines, scales or CPU sets share no noise floor.
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

    static func line(_ before: SummaryRow, _ after: SummaryRow, entry: Calibration.Entry?) -> Line {
        let (a, b) = (ComparedFigure(before), ComparedFigure(after))
        let ratio = a.value == 0 ? (b.value == 0 ? 1 : .infinity) : b.value / a.value
        let lowerIsBetter = before.metric.lowerIsBetter
        let direction: Verdict = (b.value < a.value) == lowerIsBetter ? .better : .worse
        if before.metric.isExactCount {
            let same = before.metric.sameCount(a.value, b.value)
            return Line(
                before: before, after: after, figureBefore: a, figureAfter: b, ratio: ratio, floor: nil,
                verdict: same ? .withinNoise : direction)
        }
        guard let entry, a.statistic == b.statistic else {
            return Line(
                before: before, after: after, figureBefore: a, figureAfter: b, ratio: ratio, floor: nil,
                verdict: .uncalibrated)
        }
        let floor = entry.compareFloor
        let beyondFloor =
            entry.onLogScale ? (ratio > 1 + floor || ratio < 1 / (1 + floor)) : abs(b.value - a.value) > floor
        var intervalsApart = true
        if let x = a.estimate, let y = b.estimate { intervalsApart = x.high < y.low || y.high < x.low }
        return Line(
            before: before, after: after, figureBefore: a, figureAfter: b, ratio: ratio,
            floor: entry.onLogScale ? floor : nil,
            verdict: beyondFloor && intervalsApart ? direction : .withinNoise)
    }

    public func count(_ verdict: Verdict) -> Int { lines.filter { $0.verdict == verdict }.count }
}
