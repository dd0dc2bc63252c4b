/// `bench compare A B`: how each cell of run B differs from run A, marked only where the difference is larger than
/// the noise (the two bootstrap intervals of the median do not overlap).
public struct Comparison: Sendable {
    public enum Verdict: String, Sendable {
        case better, worse
        /// The intervals overlap: no difference can be claimed.
        case withinNoise = "within noise"
        /// One side's interval is wider than the trusted spread, or it has too few rounds.
        case tooNoisy = "too noisy to trust"
    }

    public struct Line: Sendable {
        public let before: SummaryRow
        public let after: SummaryRow
        /// after / before.
        public let ratio: Double
        public let verdict: Verdict
    }

    public let lines: [Line]
    /// Cells present in only one of the files.
    public let onlyBefore: [String]
    public let onlyAfter: [String]

    public init(before: [SummaryRow], after: [SummaryRow]) {
        let afterByKey = Dictionary(after.map { ($0.key, $0) }) { first, _ in first }
        let beforeKeys = Set(before.map(\.key))
        lines = before.compactMap { row in afterByKey[row.key].map { Self.line(row, $0) } }
        onlyBefore = before.map(\.key).filter { afterByKey[$0] == nil }
        onlyAfter = after.map(\.key).filter { !beforeKeys.contains($0) }
    }

    /// Relative difference under which two single-round (exact) values count as the same.
    static let exactTolerance = 0.01

    static func line(_ before: SummaryRow, _ after: SummaryRow) -> Line {
        let ratio = before.summary.median == 0 ? (after.summary.median == 0 ? 1 : .infinity) : after.summary.median / before.summary.median
        let verdict: Verdict
        if before.summary.count == 1 && after.summary.count == 1 {
            // Single-round cells are W9's exact counts: any difference beyond rounding is real.
            let same = abs(ratio - 1) < Self.exactTolerance
            verdict = same ? .withinNoise : ((ratio < 1) == before.lowerIsBetter ? .better : .worse)
        } else if before.summary.isTooNoisy || after.summary.isTooNoisy {
            verdict = .tooNoisy
        } else if after.summary.intervalHigh < before.summary.intervalLow {
            verdict = before.lowerIsBetter ? .better : .worse
        } else if after.summary.intervalLow > before.summary.intervalHigh {
            verdict = before.lowerIsBetter ? .worse : .better
        } else {
            verdict = .withinNoise
        }
        return Line(before: before, after: after, ratio: ratio, verdict: verdict)
    }

    /// The printed comparison: one line per cell, a mark only on real differences, then a tally.
    public func render() -> String {
        var table = TextTable(["allocator", "workload", "parameters", "metric", "backend", "A median", "B median", "B/A", "verdict"])
        for line in lines {
            let mark: String = switch line.verdict {
            case .better: "** better"
            case .worse: "** WORSE"
            case .withinNoise: ""
            case .tooNoisy: "? too noisy to trust"
            }
            table.add([line.after.allocator, line.after.workload, line.after.parameters, line.after.metric, line.after.backend,
                       Format.short(line.before.summary.median), Format.short(line.after.summary.median),
                       Format.short(line.ratio) + "x", mark])
        }
        let count = { (verdict: Verdict) in lines.filter { $0.verdict == verdict }.count }
        var text = table.render()
        text += "\n\(lines.count) cells compared: \(count(.better)) better, \(count(.worse)) worse beyond the noise, "
        text += "\(count(.withinNoise)) within noise, \(count(.tooNoisy)) too noisy to trust (interval wider than "
        text += "\(Int(Statistics.trustedSpread * 100)) % of the median, or under \(Statistics.minimumRounds) rounds). "
        text += "Single-round cells (W9's exact counts) are compared exactly."
        if !onlyBefore.isEmpty || !onlyAfter.isEmpty {
            text += "\nOnly in A: \(onlyBefore.count) cells; only in B: \(onlyAfter.count) cells (not compared)."
        }
        return text
    }
}

/// A plain-text table with aligned columns.
public struct TextTable: Sendable {
    private let header: [String]
    private var rows: [[String]] = []

    public init(_ header: [String]) { self.header = header }

    public mutating func add(_ row: [String]) { rows.append(row) }

    public func render() -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0 }
        func line(_ row: [String]) -> String {
            row.enumerated().map { column, field in
                let pad = String(repeating: " ", count: widths[column] - field.count)
                return column == 0 || Double(field.filter { $0 != "x" }) == nil ? field + pad : pad + field
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
    }
}
