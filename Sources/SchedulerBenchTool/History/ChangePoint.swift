import SchedulerBench

/// A step in a cell's figure across the runs of a history, named with the run (and commit) where it began.
///
/// A boundary between two runs separates the figures when every one of the up to ``window`` runs after it lies
/// beyond every one of the up to ``window`` runs before it: a measured figure's whole 95 % interval beyond the other
/// intervals, an exact count beyond the others by more than its metric's count tolerance. A step may take up to
/// ``window`` runs (consecutive separating boundaries in one direction form one region); it is a change point when the
/// median of the figures after the region differs from the median before it by at least ``smallestStep`` and, for a
/// measured figure, by more than the noise bound calibrated on that machine (``Calibration``: what two runs of one build
/// differ by; a run's own interval knows nothing of that). A measured series with no calibrated noise bound is not judged.
/// A step needs ``confirmingRuns`` runs on each side, so the newest run alone names nothing yet.
package struct ChangePoint: Sendable, Equatable {
    /// The index of the first run at the new level, in the series.
    package let index: Int
    package let runID: String
    package let commit: String
    /// Medians of up to ``window`` runs' figures before the step and after it.
    package let before: Double
    package let after: Double
    /// The runs on the two sides had different machine fingerprints (or one had none): the machine may be the change.
    package let machineChanged: Bool

    package var ratio: Double { before == 0 ? .infinity : after / before }

    /// How many runs on each side a boundary compares, and how many runs a step may take.
    package static let window = 3
    /// The smallest step named: 5 %.
    package static let smallestStep = 0.05
    /// Runs at the new level a step needs before it is named, and at the old level before it (one run alone, at
    /// either end of a history, is no level).
    package static let confirmingRuns = 2

    /// The change points of one series; `noiseBound` gives a measured figure's calibrated noise bound (a fraction, on the log
    /// scale) for the runs on both sides of a step, or nil where no calibration covers them.
    package static func find(
        in points: [HistoryRow], noiseBound: ([HistoryRow]) -> Double? = { _ in nil }
    ) -> [ChangePoint] {
        guard points.count >= 2 else { return [] }
        let directions = (1..<points.count).map { separation(at: $0, in: points) }
        var found: [ChangePoint] = []
        var boundary = 1
        while boundary < points.count {
            guard let direction = directions[boundary - 1] else {
                boundary += 1
                continue
            }
            var last = boundary
            while last + 1 < points.count, directions[last] == direction { last += 1 }
            let before = Array(points[max(0, boundary - window)..<boundary])
            let after = Array(points[last..<min(points.count, last + window)])
            let (low, high) = (Statistics.median(before.map(\.value)), Statistics.median(after.map(\.value)))
            var smallest: Double? = smallestStep
            if !points[boundary].isExact { smallest = noiseBound(before + after).map { max($0, smallestStep) } }
            let step = low == 0 ? (high == 0 ? 1 : .infinity) : max(high / low, low / high)
            if let smallest, before.count >= confirmingRuns, after.count >= confirmingRuns, step >= 1 + smallest {
                found.append(
                    ChangePoint(
                        index: boundary, runID: points[boundary].runID, commit: points[boundary].commit,
                        before: low, after: high,
                        machineChanged: Set((before + after).map(\.machine)).count > 1
                            || (before + after).contains { $0.machine.isEmpty }))
            }
            boundary = last + 1
        }
        return found
    }

    /// +1 when every run after `boundary` (up to ``window``) lies above every run before it, -1 when below, else nil.
    static func separation(at boundary: Int, in points: [HistoryRow]) -> Int? {
        let before = points[max(0, boundary - window)..<boundary]
        let after = points[boundary..<min(points.count, boundary + window)]
        let metric = Metric.named(points[boundary].metric)
        // A measured figure of one round (W9's resident memory, W14) has no interval: it separates nothing.
        func apart(_ lower: HistoryRow, _ upper: HistoryRow) -> Bool {
            if lower.isExact { return upper.value > lower.value && !metric.sameCount(lower.value, upper.value) }
            return lower.low < lower.high && upper.low < upper.high && upper.low > lower.high
        }
        if before.allSatisfy({ b in after.allSatisfy { apart(b, $0) } }) { return 1 }
        if before.allSatisfy({ b in after.allSatisfy { apart($0, b) } }) { return -1 }
        return nil
    }
}
