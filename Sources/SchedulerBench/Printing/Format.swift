import Foundation

/// Number formatting shared by the CSVs and the tables.
package enum Format {
    /// Plain decimal with up to 3 fractional digits, no exponent (stable in CSVs).
    package static func number(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value > 0 ? "inf" : "-inf") }
        if value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
        return String(format: "%.3f", value)
    }

    /// A figure that may be absent (an empty CSV field): ``number(_:)``, or "".
    package static func optionalNumber(_ value: Double?) -> String { value.map(number) ?? "" }

    /// Plain decimal with 9 fractional digits, trailing zeros cut: for figures re-read by the tools (no exponent).
    package static func precise(_ value: Double) -> String {
        guard value.isFinite else { return number(value) }
        var text = String(format: "%.9f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// Three significant digits for people.
    package static func short(_ value: Double) -> String {
        guard value.isFinite else { return "-" }
        let magnitude = abs(value)
        if magnitude >= 100 { return String(format: "%.0f", value) }
        if magnitude >= 10 { return String(format: "%.1f", value) }
        return String(format: "%.2f", value)
    }

    /// "412 (398–430)", or "two modes: 240 (60 %), 550 (40 %)".
    package static func figure(_ summary: SampleSummary) -> String {
        if summary.modes.count == 2 {
            return "two modes: "
                + summary.modes.map { "\(short($0.value)) (\(Int(($0.share * 100).rounded())) %)" }
                .joined(separator: ", ")
        }
        return interval(summary.median, short)
    }

    /// "1.07x (1.02–1.12)".
    package static func present(_ ratio: Estimate) -> String { interval(ratio) { "\(short($0))x" } }

    /// "412 (398–430)": the figure, then its interval unless it is exact; "(no interval)" with too few rounds. The
    /// bounds are written as `bounds` writes them (`format` may add a unit the bounds should not repeat).
    package static func interval(
        _ estimate: Estimate, _ format: (Double) -> String, bounds: (Double) -> String = short
    ) -> String {
        if estimate.low == estimate.high { return format(estimate.value) }
        guard estimate.low.isFinite && estimate.high.isFinite else { return format(estimate.value) + " (no interval)" }
        return "\(format(estimate.value)) (\(bounds(estimate.low))–\(bounds(estimate.high)))"
    }
}
