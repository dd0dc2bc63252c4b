import SchedulerBench
import ToolSupport

extension Comparison {
    /// The printed comparison: one line per cell, a mark only on real differences, then a tally and what the marks
    /// rest on.
    package func render() -> String {
        var table = TextTable([
            "allocator", "workload", "parameters", "metric", "backend", "figure", "A", "B", "B/A",
            "noise", "less sweep", "noise", "verdict",
        ])
        for line in lines {
            table.add([
                line.after.allocator.rawValue, line.after.workload.rawValue, line.after.parameters.description,
                line.after.metric.name, line.after.backend.rawValue,
                line.figureAfter.statistic == .ratioToReference
                    ? "vs \(line.after.reference?.rawValue ?? "ref")" : "median",
                Format.short(line.figureBefore.value), Format.short(line.figureAfter.value),
                Format.short(line.ratio) + "x", Self.percent(line.noiseBound),
                line.ownRatio.map { Format.short($0) + "x" } ?? "", Self.percent(line.ownNoiseBound),
                Self.mark(line.verdict),
            ])
        }
        var text = table.render()
        text += "\n\(lines.count) cells compared: \(count(.better)) better, \(count(.worse)) worse beyond the noise, "
        text += "\(count(.withinNoise)) within noise"
        text += count(.uncalibrated) > 0 ? ", \(count(.uncalibrated)) not judged (?: no calibrated noise bound)." : "."
        text += sweepsMoved
        text += "\n" + basis
        if !onlyBefore.isEmpty || !onlyAfter.isEmpty {
            text += "\nOnly in A: \(onlyBefore.count) cells; only in B: \(onlyAfter.count) cells (not compared)."
        }
        return text
    }

    static func mark(_ verdict: Verdict) -> String {
        switch verdict {
        case .better: "** better"
        case .worse: "** WORSE"
        case .withinNoise: ""
        case .uncalibrated: "?"
        }
    }

    static func percent(_ fraction: Double?) -> String { fraction.map { "±\(Format.short($0 * 100))%" } ?? "" }

    /// The sweeps whose backends moved together beyond what runs of one build do, as a table, after the tally of
    /// them all; nothing when no sweep could be levelled.
    var sweepsMoved: String {
        guard !sweeps.isEmpty else { return "" }
        let moved = sweeps.filter { $0.verdict == .better || $0.verdict == .worse }
        var text =
            "\n\(sweeps.count) sweeps (the backends of a cell, compared by one statistic): \(moved.count) moved as a "
            + "whole beyond their noise bound."
        guard !moved.isEmpty else { return text }
        text +=
            " Every backend of such a sweep moved alike: the machine, or code they all share, not any one backend "
            + "(the \"less sweep\" column above takes that level out of each cell).\n"
        var table = TextTable([
            "allocator", "workload", "parameters", "metric", "figure", "backends", "B/A", "noise", "verdict",
        ])
        for sweep in moved {
            table.add([
                sweep.key.allocator.rawValue, sweep.key.workload.rawValue, sweep.key.parameters.description,
                sweep.key.metric.name, sweep.key.statistic == .median ? "medians" : "vs ref", String(sweep.backends),
                Format.short(sweep.ratio) + "x", Self.percent(sweep.noiseBound), Self.mark(sweep.verdict),
            ])
        }
        return text + table.render()
    }

    /// What the marks rest on, in one paragraph.
    package var basis: String {
        var text =
            "A cell's figure is its paired ratio to its run's reference row where it has one (vs ...), else its median. "
        if let incomparable {
            text +=
                "Measured cells are not judged: \(incomparable). Exact counts are compared as counts (beyond their "
                + "tolerance: 0.1 allocations, 2 % of instructions or bytes)."
            if mediansLeftOut > 0 {
                text +=
                    " Across machines only ratios to each run's own reference rows are compared: \(mediansLeftOut) cells "
                    + "with a median only are left out (bench machines puts such runs side by side)."
            }
        } else if let calibration {
            text +=
                "A measured difference is marked when it exceeds the noise bound calibrated on this machine (\(calibration.runs) runs of "
                + "\(calibration.commit), \(calibration.scale) scale, CPUs \(calibration.cpus): two runs of one build differ by more in 1 % "
                + "of cells), the runs' own intervals do not overlap and, in a cell of at least "
                + "\(RoundLevels.minimumBackends) backends, it stays beyond its own calibrated noise bound once the median "
                + "difference of the cell's other backends is divided out (less sweep). Exact counts are marked "
                + "beyond their tolerance (0.1 allocations, 2 % of instructions or bytes), except a count that changed "
                + "between the calibration's runs: that one is judged against its noise bound like a measured figure."
        } else {
            text +=
                "No calibration for this machine and kind of run: measured cells are not judged. Run `bench calibrate` "
                + "(same scale and --cpus as these runs) to measure the noise bound; exact counts are compared as counts."
        }
        return text
    }

    /// The comparison as a Markdown page that names the command and both runs (for a file under Results/).
    package func markdown(
        command: String, before: (path: String, rows: [SummaryRow]),
        after: (path: String, rows: [SummaryRow])
    ) -> String {
        func describe(_ run: (path: String, rows: [SummaryRow])) -> String {
            guard let metadata = run.rows.first?.metadata else { return "`\(run.path)`" }
            return "`\(run.path)`: run \(metadata.runID), commit \(metadata.gitCommit), \(metadata.host) "
                + "(\(metadata.cores) cores, CPUs \(metadata.cpus)), load \(metadata.loadAverage)"
        }
        return "# bench compare\n\nGenerated by `\(command)`; do not edit.\n\n"
            + "- before (A): \(describe(before))\n- after (B): \(describe(after))\n\n```\n\(render())\n```\n"
    }
}
