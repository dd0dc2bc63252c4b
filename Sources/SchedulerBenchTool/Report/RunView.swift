import SchedulerBench
import SchedulerConformance
import ToolSupport

/// One allocator's rows of a run, as the report's sentences read them.
struct RunView {
    let run: RunData
    let allocator: AllocatorChoice

    var rows: [SummaryRow] { run.summary.filter { $0.allocator == allocator } }

    func row(
        _ backend: BackendID, _ workload: WorkloadID, _ metric: Metric,
        _ parameters: Parameters = Parameters([:])
    ) -> SummaryRow? {
        run.row(backend, workload, metric, allocator: allocator, parameters: parameters)
    }

    /// `a` over `b`: paired by round when both are in one configuration, else a ratio of medians; exact for counts.
    func ratio(_ a: SummaryRow, _ b: SummaryRow) -> Estimate? {
        if a.metric.isExactCount {
            let bottom = b.summary.median.value
            return bottom > 0 ? .exact(a.summary.median.value / bottom) : nil
        }
        return a.parameters == b.parameters && a.workload == b.workload
            ? Statistics.pairedRatio(run.values(of: a), over: run.values(of: b))
            : Statistics.unpairedRatio(run.values(of: a), over: run.values(of: b))
    }

    /// Exact counts compare as counts (``Metric/sameCount(_:_:)``); measured figures by their paired ratio.
    func versus(_ a: SummaryRow, _ b: SummaryRow) -> Versus {
        guard a.metric.isExactCount else { return Versus(ratio(a, b)) }
        let (x, y) = (a.summary.median.value, b.summary.median.value)
        if a.metric.sameCount(x, y) { return .withinNoise }
        return x < y ? .lower(x > 0 ? y / x : .infinity) : .higher(y > 0 ? x / y : .infinity)
    }
}

/// How one row compares with another, claiming a difference only when the interval of their ratio (paired by round
/// where they ran in the same sweeps) lies wholly on one side of 1.
enum Versus: Equatable {
    /// The first row is lower by this factor (other / this).
    case lower(Double)
    /// The first row is higher by this factor (this / other).
    case higher(Double)
    case withinNoise

    init(_ ratio: Estimate?) {
        guard let ratio, ratio.value > 0 else {
            self = .withinNoise
            return
        }
        if ratio.high < 1 && ratio.value < 1 - Self.exactTolerance {
            self = .lower(1 / ratio.value)
        } else if ratio.low > 1 && ratio.value > 1 + Self.exactTolerance {
            self = .higher(ratio.value)
        } else {
            self = .withinNoise
        }
    }

    /// Below this relative difference even an exact ratio claims nothing.
    static let exactTolerance = 0.01

    /// "3.2x less", "1.5x more" or "within noise".
    func phrase(lower: String, higher: String) -> String {
        switch self {
        case .lower(let times): "\(Format.short(times))x \(lower)"
        case .higher(let times): "\(Format.short(times))x \(higher)"
        case .withinNoise: "within noise"
        }
    }
}
