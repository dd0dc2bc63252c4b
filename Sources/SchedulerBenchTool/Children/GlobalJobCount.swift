import Foundation
import SchedulerBench
@_spi(Explorer) import SchedulerKit
import Synchronization
import ToolSupport

/// How many jobs a unit of work sends through the process's global executor: what decides whether a global executor
/// can be ahead on a row at all. A row whose units send none (W11 and W13 with default actors: the runtime switches
/// onto an idle default actor and back in place) measures the same work under every global executor, and one whose
/// units send next to none on both sides of a pair (W25 once the consumer runs after the burst, on the producer's
/// thread) is at that floor on both: neither can be ahead except by noise.
///
/// Counted in a child process started on the global executor it counts for (`BENCH_GLOBAL_EXECUTOR`): every job of
/// the process passes the runtime's global-enqueue hook, where a ``GlobalJobInterceptor`` counts it and lets it go on
/// to the executor installed. Per unit, the difference between a run of the row's units and an empty run, after a
/// warm-up, on the `default-executor` lane (the contest's), as the allocation pass counts allocations
/// (``AllocationProbe/perUnit(on:_:counter:)``).
package enum GlobalJobCount {
    /// The counts' CSV: one row per workload configuration with an allocation probe (W11–W13, W24, W25).
    package static let header = ["workload", "parameters", "jobs_per_unit"]

    /// Jobs through the global executor per unit of `workload` with `parameters`; nil where the workload has no loop
    /// to count (no allocation probe) or the runtime has no hook.
    package static func perUnit(_ workload: Workload, _ parameters: Parameters) -> Double? {
        guard let probe = workload.allocationProbe,
            let backend = Backend.references.first(where: { $0.id == .defaultExecutor })
        else { return nil }
        let counter = JobCounter()
        guard GlobalEnqueueHook.add(counter) else { return nil }
        defer { GlobalEnqueueHook.remove(counter) }
        return probe.perUnit(on: backend, parameters) { counter.jobs.load(ordering: .acquiring) }
    }

    /// The child's output: every configuration at `scale` of each of `workloads` that has a loop to count.
    package static func csv(_ workloads: [WorkloadID], scale: Scale) -> String {
        var rows = [header]
        for workload in workloads.compactMap(Workload.withID) {
            for parameters in workload.parameters(at: scale) {
                guard let perUnit = perUnit(workload, parameters) else { continue }
                rows.append([workload.id.rawValue, parameters.description, String(perUnit)])
            }
        }
        return CSV.encode(rows)
    }

    /// A child's output read back: jobs per unit by workload and parameters (as a cell names them).
    package static func parse(_ text: String) throws -> [Key: Double] {
        let table = try CSVTable(text: text, source: "the global-job count", required: header)
        var counts: [Key: Double] = [:]
        for record in table.records {
            let key = Key(
                workload: WorkloadID(rawValue: try record.text("workload")), parameters: try record.text("parameters"))
            counts[key] = try record.number("jobs_per_unit")
        }
        return counts
    }

    /// A row of a workload: its id and its parameters as a cell names them (`calls=10000 caller=global`).
    package struct Key: Hashable, Sendable {
        package let workload: WorkloadID
        package let parameters: String
        package init(workload: WorkloadID, parameters: String) {
            self.workload = workload
            self.parameters = parameters
        }
    }

    /// Below this many jobs a unit a row is at the floor: its work does not pass the global executor.
    package static let floor = 0.01
}

/// Counts the jobs it is offered and takes none.
private final class JobCounter: GlobalJobInterceptor {
    let jobs = Atomic<Int>(0)
    func take(_ job: UnownedJob) -> Bool {
        jobs.add(1, ordering: .relaxed)
        return false
    }
}
