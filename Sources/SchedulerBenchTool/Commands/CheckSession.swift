import Foundation
import SchedulerBench
import SchedulerConformance
import ToolSupport

/// `bench check`: the deterministic costs of every backend (instructions per task on the schedule and run paths,
/// exact allocations and bytes per task of W9, allocations of every thread per unit of W11–W13), compared with the
/// committed thresholds. The figures are the same on every run of the same build, so CI can gate on them where it
/// can never gate on timings.
package enum CheckSession {
    package struct Outcome: Sendable {
        package let file: URL
        package let lines: [Thresholds.Line]
        /// Backends whose instructions cannot be counted per task here (reported, not gated).
        package let notCounted: [InstructionCount.NotLinear]
        /// True when the limits were rewritten from this measurement (`--update`).
        package let updated: Bool

        package var regressions: [Thresholds.Line] { lines.filter { $0.verdict == .regressed } }
    }

    /// Measures, then compares with (or, with `update`, rewrites) the thresholds file of this toolchain under `folder`.
    package static func perform(
        backends: [BackendID]?, thresholdsFolder: String, update: Bool, launcher: any ChildLauncher,
        log: (String) -> Void
    ) throws -> Outcome {
        let file = Thresholds.file(in: thresholdsFolder)
        let existing = FileManager.default.fileExists(atPath: file.path) ? try Thresholds(contentsOf: file.path) : nil
        guard update || existing != nil else {
            throw BenchError.input(
                "no thresholds for this toolchain at \(file.path): run bench check --update and commit the file")
        }
        try Relaunch.ensure(.jemalloc)
        let request = RunRequest(backends: backends, scale: .quick)
        let selected = try request.resolvedBackends()
        var costs: [CostCell: Double] = [:]
        let (counts, notLinear) = try InstructionCount.measure(selected, launcher: launcher, log: log)
        for count in counts {
            costs[CostCell(backend: count.backend, workload: nil, metric: .instructionsToSchedule)] = count.schedule
            costs[CostCell(backend: count.backend, workload: nil, metric: .instructionsToRun)] = count.run
            if let cycles = count.scheduleCycles {
                costs[CostCell(backend: count.backend, workload: nil, metric: .estimatedCyclesToSchedule)] = cycles
            }
            if let cycles = count.runCycles {
                costs[CostCell(backend: count.backend, workload: nil, metric: .estimatedCyclesToRun)] = cycles
            }
        }
        log("counting allocations per task (W9) and of every thread per actor call, task and round trip (W11–W13)")
        for cost in ExactCosts.measure(selected, counter: ChildProcess.allocationCounter(launcher), log: log) {
            costs[
                CostCell(
                    backend: cost.backend, workload: cost.workload, parameters: cost.parameters, metric: cost.metric)
            ] = cost.value
        }
        // An update rewrites the limits of what was measured and keeps the rest: `--update --backend X` touches X's
        // rows only, so a cell known to vary between runs keeps the limit a reviewer chose for it.
        let limits = update ? (existing?.limits ?? [:]).merging(Thresholds.measured(costs).limits) { $1 } : nil
        if let limits {
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try AtomicFile.write(Thresholds(limits: limits).csv, to: file)
        }
        let lines = (limits.map(Thresholds.init(limits:)) ?? existing!).check(costs)
        return Outcome(file: file, lines: lines, notCounted: notLinear, updated: update)
    }
}
