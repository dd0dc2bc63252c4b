import SchedulerConformance
import ToolSupport

/// The table `bench` prints at the end of a run: per (workload, parameters), one line per backend.
enum SummaryTable {
    static func render(_ rows: [SummaryRow]) -> String {
        var sections: [String] = []
        var seen = Set<String>()
        for row in rows {
            let cell = "\(row.allocator.rawValue)|\(row.workload)|\(row.parameters)"
            guard seen.insert(cell).inserted else { continue }
            let members = rows.filter {
                $0.allocator == row.allocator && $0.workload == row.workload && $0.parameters == row.parameters
            }
            let metrics = members.reduce(into: [Metric]()) { if !$0.contains($1.metric) { $0.append($1.metric) } }
            let title = "\(row.workload) \(row.workloadName)  \(row.parameters)  [\(row.allocator.rawValue)]"
            sections.append(title + "\n" + (metrics.count == 1 ? single(members) : multiple(members, metrics)))
        }
        return sections.joined(separator: "\n\n")
    }

    /// One metric: median (or modes) with its interval, range, paired ratios, what the kernel did.
    static func single(_ rows: [SummaryRow]) -> String {
        var table = TextTable([
            "backend", "\(rows[0].metric) (\(rows[0].metric.unit))", "min", "max", "vs ref", "vs best",
            "csw", "migr", "note",
        ])
        for row in rows {
            table.add([
                row.backend.rawValue, Format.figure(row.summary), Format.short(row.summary.min),
                Format.short(row.summary.max),
                row.ratioToReference.map { "\(Format.present($0)) \(row.reference?.rawValue ?? "")" } ?? "",
                row.ratioToFastest.map(Format.present) ?? "",
                row.contextSwitches.map(Format.short) ?? "", row.migrations.map(Format.short) ?? "", note(row),
            ])
        }
        return table.render()
    }

    /// Several metrics (latency percentiles, allocations): medians side by side, ratios on the first metric.
    static func multiple(_ rows: [SummaryRow], _ metrics: [Metric]) -> String {
        var table = TextTable(["backend"] + metrics.map { "\($0) (\($0.unit))" } + ["\(metrics[0]) vs ref", "note"])
        var backends: [BackendID] = []
        for row in rows where !backends.contains(row.backend) { backends.append(row.backend) }
        for backend in backends {
            let mine = rows.filter { $0.backend == backend }
            let cells = metrics.map { metric in
                mine.first { $0.metric == metric }.map { Format.short($0.summary.median.value) } ?? "n/a"
            }
            let first = mine.first { $0.metric == metrics[0] }
            table.add(
                [backend.rawValue] + cells + [
                    first?.ratioToReference.map { "\(Format.present($0)) \(first?.reference?.rawValue ?? "")" } ?? "",
                    mine.contains { !$0.isTrusted && $0.summary.count >= Statistics.minimumRounds } ? "noisy" : "",
                ])
        }
        return table.render()
    }

    static func note(_ row: SummaryRow) -> String {
        if row.metric.isExactCount { return "exact" }
        if row.summary.count < Statistics.minimumRounds { return "\(row.summary.count) round(s)" }
        if row.summary.modes.count == 2 { return "two modes" }
        return row.summary.isTooNoisy
            ? "too noisy to trust (±\(Format.short(row.summary.median.relativeWidth * 50))%)" : ""
    }
}
