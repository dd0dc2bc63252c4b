import SchedulerBench
import ToolSupport

extension Format {
    /// "412 (398–430) µs": an estimate with its bounds written as its figure is (`format` adds the unit to neither).
    static func interval(of estimate: Estimate, _ format: (Double) -> String) -> String {
        interval(value: estimate.value, low: estimate.low, high: estimate.high, format, bounds: format)
    }
}
