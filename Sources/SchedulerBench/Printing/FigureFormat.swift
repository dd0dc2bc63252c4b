import ToolSupport

/// How the bench writes its figures for people, in its tables and the tool's pages.
extension Format {
    /// "412 (398–430)", or "two modes: 240 (60 %), 550 (40 %)".
    public static func figure(_ summary: SampleSummary) -> String {
        if summary.modes.count == 2 {
            return "two modes: "
                + summary.modes.map { "\(short($0.value)) (\(Int(($0.share * 100).rounded())) %)" }
                .joined(separator: ", ")
        }
        return interval(summary.median, short)
    }

    /// "1.07x (1.02–1.12)".
    public static func present(_ ratio: Estimate) -> String { interval(ratio) { "\(short($0))x" } }

    /// "412 (398–430)": ``interval(value:low:high:_:bounds:)`` of an estimate.
    static func interval(
        _ estimate: Estimate, _ format: (Double) -> String, bounds: (Double) -> String = short
    ) -> String {
        interval(value: estimate.value, low: estimate.low, high: estimate.high, format, bounds: bounds)
    }
}
