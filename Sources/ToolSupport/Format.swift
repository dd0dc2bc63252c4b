import Foundation

/// Number formatting shared by the bench's CSV files and tables, its runtime's and its tool's.
public enum Format {
    /// Plain decimal with up to 3 fractional digits, no exponent (stable in CSVs).
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value > 0 ? "inf" : "-inf") }
        if value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
        return String(format: "%.3f", value)
    }

    /// A figure that may be absent (an empty CSV field): ``number(_:)``, or "".
    public static func optionalNumber(_ value: Double?) -> String { value.map(number) ?? "" }

    /// Plain decimal with 9 fractional digits, trailing zeros cut: for figures re-read by the tools (no exponent).
    public static func precise(_ value: Double) -> String {
        guard value.isFinite else { return number(value) }
        var text = String(format: "%.9f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// Three significant digits for people.
    public static func short(_ value: Double) -> String {
        guard value.isFinite else { return "-" }
        let magnitude = abs(value)
        if magnitude >= 100 { return String(format: "%.0f", value) }
        if magnitude >= 10 { return String(format: "%.1f", value) }
        return String(format: "%.2f", value)
    }

    /// "412 (398–430)": a figure, then its interval unless it is exact; "(no interval)" where its bounds are
    /// infinite (too few rounds). The bounds are written as `bounds` writes them (`format` may add a unit the bounds
    /// should not repeat).
    public static func interval(
        value: Double, low: Double, high: Double, _ format: (Double) -> String,
        bounds: (Double) -> String = short
    ) -> String {
        if low == high { return format(value) }
        guard low.isFinite && high.isFinite else { return format(value) + " (no interval)" }
        return "\(format(value)) (\(bounds(low))–\(bounds(high)))"
    }
}
