import SchedulerBench

/// Bencher Metric Format (bencher.dev/docs/reference/bencher-metric-format): benchmark name → measure → metric.
///
/// The measure is the metric's name as a kebab-case slug (`ns-per-task`, `p99-9`): Bencher creates a measure it does
/// not know from its slug, and a slug is letters, digits and hyphens of at most 64 characters.
struct BencherMetricFormat: Encodable {
    struct Value: Encodable, Equatable {
        var value: Double
        var lowerValue: Double?
        var upperValue: Double?

        enum CodingKeys: String, CodingKey {
            case value
            case lowerValue = "lower_value"
            case upperValue = "upper_value"
        }
    }

    var benchmarks: [String: [String: Value]] = [:]

    init(_ cells: [ExportedCell]) {
        for cell in cells {
            benchmarks[cell.benchmark, default: [:]][Self.slug(cell.row.metric.name)] = Value(
                value: cell.row.summary.median.value, lowerValue: cell.interval?.low, upperValue: cell.interval?.high)
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(benchmarks)
    }

    /// `ns_per_task` → `ns-per-task`, `p99.9` → `p99-9`.
    static func slug(_ name: String) -> String {
        String(name.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }.prefix(64))
    }
}
