import Foundation

/// Finds cells whose rounds fall into two clusters, as they do when where the kernel places the threads decides the
/// figure (two threads sharing one core, or each on its own): such a cell is reported as two modes with their
/// shares, not as one median with a wide interval that describes neither.
///
/// Two modes are claimed when the sorted rounds (on a log scale) have a gap that is at least `minimumGap` (the
/// clusters differ by 15 % or more) and at least `gapOverSpread` times the wider cluster's own range, with at least
/// ``minimumShare`` of the rounds and two rounds on each side: one stray round is an outlier, not a mode.
enum Modes {
    static let minimumRounds = 6
    static let minimumShare = 0.2
    static let minimumGap = 0.14  // ln(1.15)
    static let gapOverSpread = 2.0

    /// Two modes, lower first, or none.
    static func detect(_ values: [Double]) -> [SampleSummary.Mode] {
        guard values.count >= minimumRounds, values.allSatisfy({ $0 > 0 && $0.isFinite }) else { return [] }
        let sorted = values.sorted()
        let logs = sorted.map { Foundation.log($0) }
        let smallest = max(2, Int((minimumShare * Double(sorted.count)).rounded(.up)))
        guard sorted.count - smallest >= smallest else { return [] }
        var best: (split: Int, gap: Double)?
        for split in smallest...(sorted.count - smallest) {
            let gap = logs[split] - logs[split - 1]
            let spread = max(logs[split - 1] - logs[0], logs[logs.count - 1] - logs[split])
            guard gap >= minimumGap, gap >= gapOverSpread * spread else { continue }
            if best == nil || gap > best!.gap { best = (split, gap) }
        }
        guard let split = best?.split else { return [] }
        let share = Double(split) / Double(sorted.count)
        return [
            (value: Statistics.median(sorted: Array(sorted[..<split])), share: share),
            (value: Statistics.median(sorted: Array(sorted[split...])), share: 1 - share),
        ]
    }
}
