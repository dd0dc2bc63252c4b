import Foundation
import SchedulerBench
import ToolSupport

/// The charts of REPORT.md, as data: which figures go into which panel of which chart. `bench report` writes them to
/// `charts.csv` and `scripts/plot_results.py` only draws what it is handed, so no name of a backend, workload or
/// metric is spelt outside the catalog.
enum Charts {
    enum Style: String {
        /// One bar per backend, its range drawn from min to max, on a log axis.
        case logBars = "bars-log"
        /// One bar per backend with its value written on it, on a linear axis.
        case bars
        /// One line per backend across the x labels (latency percentiles), on a log axis.
        case logLines = "lines-log"
        /// One line per backend across the x labels, on a linear axis from 0 to 1 (`bench power`'s detection rates).
        case rateLines = "lines-rate"
    }

    /// One drawn value.
    struct Point {
        var chart: Chart
        var row: Int
        var column: Int
        var panelTitle: String
        var yLabel: String
        var style: Style
        var x: String
        var series: String
        var value: Double
        var low: Double?
        var high: Double?
    }

    enum Chart: String, CaseIterable {
        case throughput
        case latency
        case allocations
        case actors
        case idleCPU = "idle_cpu"
        /// W2 and W3 against their core-relative counts (``Workload/label(_:of:cores:)``).
        case scaling
        /// `bench power`'s operating characteristic: not part of a run's report.
        case power

        func title(_ allocator: AllocatorChoice) -> String {
            switch self {
            case .throughput:
                "Cost per task, hop or step (median; bars span min to max over the rounds), \(allocator.rawValue); lower is better"
            case .latency: "Latency percentiles (median over rounds), \(allocator.rawValue); load=1: every core busy"
            case .allocations: "W9: allocations on the scheduling thread, \(allocator.rawValue)"
            case .actors:
                "Actors and tasks on each executor beside default actors (median; bars span min to max), \(allocator.rawValue)"
            case .idleCPU: "W14: CPU used while idle after one task, \(allocator.rawValue); lower is better"
            case .scaling:
                "Cost per task against producers (W2) and schedulers (W3), counted in cores, \(allocator.rawValue)"
            case .power: "bench power: trials called slower (A/A: marked)"
            }
        }

        /// What the chart shows, under it in the report.
        var caption: String {
            switch self {
            case .throughput:
                "Cost per task, hop or step by backend (median; bars span min to max over the rounds; log axis)."
            case .latency:
                "Schedule-to-start latency (W5, idle and saturated) and timer lateness (W6) percentiles, log axis."
            case .allocations: "Allocations and bytes per scheduled task (W9, counted on the scheduling thread)."
            case .actors:
                "Actors and tasks (W11–W13): time per actor call (from the global executor and from the backend), per task "
                    + "and per actor round trip on each backend's executor beside default actors (log axis); below, allocations of "
                    + "every thread per unit."
            case .idleCPU:
                "CPU time (user + system) the process used while each backend sat idle after one task (W14): spinning shows here."
            case .scaling:
                "Cost per task as producers grow from 1 to 4× the cores (W2) and as one producer spreads over 1, 8× the "
                    + "cores and 1 000 schedulers (W3): one line per backend, log axis; the counts scale with the machine."
            case .power:
                "Share of trials called slower per planted slowdown, by backend; at 0, the share of A/A trials marked at all."
            }
        }
    }

    static let costs: [Metric] = [.nsPerTask, .nsPerRoundTrip, .nsPerStep, .nsPerValue]
    static let actorWorkloads: [WorkloadID] = [.actorHop, .taskLifecycle, .actorPingPong]
    static let actorTimes: [Metric] = [.nsPerCall, .nsPerTask, .nsPerRoundTrip]
    static let actorAllocations: [Metric] = [.allocsPerCall, .allocsPerTask, .allocsPerRoundTrip]
    static let allocations: [Metric] = [.allocsPerTask, .bytesPerTask, .rssPerQueuedTask]
    /// Panels in a row of the throughput chart.
    static let columns = 4

    static func points(_ view: RunView) -> [Point] {
        var points: [Point] = []
        func bars(
            _ chart: Chart, _ rows: [SummaryRow], at index: (row: Int, column: Int), title: String, yLabel: String,
            style: Style
        ) {
            points += rows.map { row in
                Point(
                    chart: chart, row: index.row, column: index.column, panelTitle: title, yLabel: yLabel, style: style,
                    x: row.backend.rawValue, series: row.backend.rawValue, value: row.summary.median.value,
                    low: style == .logBars ? row.summary.min : nil, high: style == .logBars ? row.summary.max : nil)
            }
        }
        let throughput = cells(view) { !actorWorkloads.contains($0.workload) && costs.contains($0.metric) }
        for (index, cell) in throughput.enumerated() {
            bars(
                .throughput, cell.rows, at: (index / columns, index % columns),
                title: "\(cell.workload) \(cell.parameters)",
                yLabel: "\(cell.metric) (ns, log)", style: .logBars)
        }
        let latency = cells(view) { [.startLatency, .timerLateness].contains($0.workload) && $0.metric == .p50 }
        for (index, cell) in latency.enumerated() {
            for row in cell.rows {
                for (metric, _) in Metric.latencyPercentiles {
                    guard
                        let value = view.row(row.backend, cell.workload, metric, cell.parameters)?.summary.median.value
                    else { continue }
                    points.append(
                        Point(
                            chart: .latency, row: 0, column: index, panelTitle: "\(cell.workload) \(cell.parameters)",
                            yLabel: "µs (log)", style: .logLines, x: metric.name, series: row.backend.rawValue,
                            value: value / 1000))
                }
            }
        }
        for (index, metric) in allocations.enumerated() {
            let rows = view.rows.filter { $0.workload == .allocations && $0.metric == metric }
            bars(
                .allocations, rows, at: (0, index), title: "\(metric) (\(metric.unit))", yLabel: metric.unit,
                style: .bars)
        }
        for (line, (metrics, style)) in [(actorTimes, Style.logBars), (actorAllocations, .bars)].enumerated() {
            let actorCells = cells(view) { actorWorkloads.contains($0.workload) && metrics.contains($0.metric) }
            for (column, cell) in actorCells.enumerated() {
                bars(
                    .actors, cell.rows, at: (line, column), title: "\(cell.workload) \(cell.parameters)",
                    yLabel: "\(cell.metric)\(style == .logBars ? " (ns, log)" : "")", style: style)
            }
        }
        let cores = view.rows.first?.metadata.cores ?? ProcessInfo.processInfo.activeProcessorCount
        let scaling: [(WorkloadID, ParameterName)] = [(.producers, .producers), (.fanOut, .schedulers)]
        for (column, (workload, parameter)) in scaling.enumerated() {
            guard let counts = Workload.withID(workload) else { continue }
            for row in view.rows where row.workload == workload && row.metric == .nsPerTask {
                guard let count = row.parameters.number(parameter) else { continue }
                points.append(
                    Point(
                        chart: .scaling, row: 0, column: column, panelTitle: "\(workload) \(parameter)",
                        yLabel: "ns per task (log)", style: .logLines,
                        x: counts.label(count, of: parameter, cores: cores),
                        series: row.backend.rawValue, value: row.summary.median.value))
            }
        }
        for (column, cell) in cells(view, { $0.workload == .idleCPU }).enumerated() {
            bars(
                .idleCPU, cell.rows, at: (0, column), title: "\(cell.workload) \(cell.parameters)",
                yLabel: "CPU ms (user + system)",
                style: .bars)
        }
        return points
    }

    /// The rows of the run grouped by (workload, parameters, metric), in the run's order, for the cells `include`
    /// takes.
    private static func cells(_ view: RunView, _ include: (SummaryRow) -> Bool)
        -> [(workload: WorkloadID, parameters: Parameters, metric: Metric, rows: [SummaryRow])]
    {
        var cells: [(workload: WorkloadID, parameters: Parameters, metric: Metric, rows: [SummaryRow])] = []
        for row in view.rows where include(row) {
            if let index = cells.firstIndex(where: {
                $0.workload == row.workload && $0.parameters == row.parameters && $0.metric == row.metric
            }) {
                cells[index].rows.append(row)
            } else {
                cells.append((row.workload, row.parameters, row.metric, [row]))
            }
        }
        return cells
    }

    /// `charts.csv`, what `scripts/plot_results.py` draws.
    static func csv(_ points: [Point], allocator: AllocatorChoice) -> String {
        let header = [
            "chart", "chart_title", "row", "column", "panel_title", "y_label", "style", "x", "series", "value", "low",
            "high",
        ]
        return CSV.encode(
            [header]
                + points.map { point in
                    [
                        point.chart.rawValue, point.chart.title(allocator), String(point.row), String(point.column),
                        point.panelTitle,
                        point.yLabel, point.style.rawValue, point.x, point.series, Format.number(point.value),
                        point.low.map(Format.number) ?? "", point.high.map(Format.number) ?? "",
                    ]
                })
    }
}
