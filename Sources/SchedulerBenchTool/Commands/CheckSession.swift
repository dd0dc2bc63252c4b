import Foundation
import SchedulerBench
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
        try Relaunch.checkAvailable(.jemalloc)
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
        let exact = Runner(
            backends: selected, workloads: [.allocations, .actorHop, .taskLifecycle, .actorPingPong],
            scale: .quick)
        let counted = AllocationPass.run(for: exact, counter: ChildProcess.allocationCounter(launcher), log: log)
        let allocations = Runner(backends: selected, workloads: [.allocations], scale: .quick).run()
        for cell in AllocationPass.merge(counted, into: allocations + countedCells(exact)) {
            for entry in cell.backends {
                for metric in cell.workload.allMetrics where metric.isExactCount {
                    guard let values = entry.values(of: metric) else { continue }
                    costs[
                        CostCell(
                            backend: entry.backend.id, workload: cell.workload.id, parameters: cell.parameters,
                            metric: metric)] = Statistics.median(values)
                }
            }
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

    /// Empty cells of the counted workloads, for the allocation pass's counts to land in.
    private static func countedCells(_ runner: Runner) -> [CellMeasurement] {
        runner.plan.filter { $0.workload.allocationProbe != nil }.map { cell in
            CellMeasurement(
                workload: cell.workload, parameters: cell.parameters,
                backends: cell.backends.map { BackendRounds(backend: $0) })
        }
    }
}
