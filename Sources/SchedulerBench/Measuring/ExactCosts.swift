import SchedulerConformance

/// The exact counts of a build that `bench check` holds to committed limits, beside its instruction counts:
/// allocations and bytes per task of W9, counted in this process, and allocations of every thread per unit of
/// W11–W13, counted in a child process through `counter` (``AllocationPass``), at quick scale.
package enum ExactCosts {
    /// One backend's exact count of a metric in a cell.
    package typealias Cost = (
        backend: BackendID, workload: WorkloadID, parameters: Parameters, metric: Metric, value: Double
    )

    /// Counts on `backends`; `log` hears what is counted where.
    package static func measure(
        _ backends: [Backend], counter: @escaping AllocationPass.Counter, log: (String) -> Void
    ) -> [Cost] {
        let exact = Runner(
            backends: backends, workloads: [.allocations, .actorHop, .taskLifecycle, .actorPingPong], scale: .quick)
        let counted = AllocationPass.run(for: exact, counter: counter, log: log)
        let allocations = Runner(backends: backends, workloads: [.allocations], scale: .quick).run()
        var costs: [Cost] = []
        for cell in AllocationPass.merge(counted, into: allocations + countedCells(exact)) {
            for entry in cell.backends {
                for metric in cell.workload.allMetrics where metric.isExactCount {
                    guard let values = entry.values(of: metric) else { continue }
                    costs.append(
                        (entry.backend.id, cell.workload.id, cell.parameters, metric, Statistics.median(values)))
                }
            }
        }
        return costs
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
