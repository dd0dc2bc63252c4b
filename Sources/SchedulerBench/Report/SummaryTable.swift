/// The table `bench` prints at the end of a run: per (workload, parameters), one line per backend.
public enum SummaryTable {
    public static func render(_ rows: [SummaryRow]) -> String {
        var sections: [String] = []
        var seen = Set<String>()
        for row in rows {
            let cell = [row.allocator, row.workload, row.parameters].joined(separator: "|")
            guard seen.insert(cell).inserted else { continue }
            let members = rows.filter { [$0.allocator, $0.workload, $0.parameters].joined(separator: "|") == cell }
            let metrics = members.reduce(into: [String]()) { if !$0.contains($1.metric) { $0.append($1.metric) } }
            let title = "\(row.workload) \(row.workloadName)  \(row.parameters)  [\(row.allocator)]"
            sections.append(title + "\n" + (metrics.count == 1 ? single(members) : multiple(members, metrics)))
        }
        return sections.joined(separator: "\n\n")
    }

    /// One metric: median, min–max, bootstrap interval, ratios, trust.
    static func single(_ rows: [SummaryRow]) -> String {
        let unit = rows[0].unit
        var table = TextTable(["backend", "\(rows[0].metric) (\(unit))", "min", "max", "95% CI", "vs ref", "vs best", "note"])
        for row in rows {
            table.add([
                row.backend, Format.short(row.summary.median), Format.short(row.summary.min), Format.short(row.summary.max),
                "\(Format.short(row.summary.intervalLow))–\(Format.short(row.summary.intervalHigh))",
                row.ratioToReference.map { "\(Format.short($0))x \(row.reference)" } ?? "",
                row.ratioToFastest.map { Format.short($0) + "x" } ?? "",
                note(row),
            ])
        }
        return table.render()
    }

    /// Several metrics (latency percentiles, allocations): medians side by side, ratios on the first metric.
    static func multiple(_ rows: [SummaryRow], _ metrics: [String]) -> String {
        let units = metrics.map { metric in rows.first { $0.metric == metric }?.unit ?? "" }
        var table = TextTable(["backend"] + zip(metrics, units).map { "\($0) (\($1))" } + ["\(metrics[0]) vs ref", "note"])
        var backends: [String] = []
        for row in rows where !backends.contains(row.backend) { backends.append(row.backend) }
        for backend in backends {
            let mine = rows.filter { $0.backend == backend }
            let cells = metrics.map { metric in mine.first { $0.metric == metric }.map { Format.short($0.summary.median) } ?? "n/a" }
            let first = mine.first { $0.metric == metrics[0] }
            table.add([backend] + cells + [
                first?.ratioToReference.map { "\(Format.short($0))x \(first!.reference)" } ?? "",
                mine.contains { $0.summary.isTooNoisy && $0.summary.count >= Statistics.minimumRounds } ? "noisy" : "",
            ])
        }
        return table.render()
    }

    static func note(_ row: SummaryRow) -> String {
        if row.summary.count < Statistics.minimumRounds { return "\(row.summary.count) round(s)" }
        return row.summary.isTooNoisy ? "too noisy to trust (±\(Format.short(row.summary.relativeSpread * 50))%)" : ""
    }
}
