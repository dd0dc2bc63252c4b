import Foundation
import SchedulerBench
@_spi(Explorer) import SchedulerKit
import Synchronization
import ToolSupport

/// How many jobs a unit of work sends through the process's global executor while a row is timed, and how many tasks
/// other than the timed one they belong to: what decides whether a global executor can be ahead on a row at all.
/// A row whose timed task is alone and sends (next to) no job (W11 and W13 with default actors: the runtime switches
/// onto an idle default actor and back in place, on the thread the timed task runs on) measures the same work under
/// every global executor: it leaves them nothing to decide (``OutOfReach``). A row that starts a task beside the timed
/// one always leaves one decision, however few jobs it sends: W25's consumer, started once beside the burst, sends one
/// job in thousands of events, yet whether it runs beside the producer or after it decides the row.
///
/// Counted in a child process started on the global executor it counts for (`BENCH_GLOBAL_EXECUTOR`): every job of
/// the process passes the runtime's global-enqueue hook, where a ``GlobalJobInterceptor`` counts it, and its task,
/// and lets it go on to the executor installed. Read from inside the timed task just before and after one timed run
/// of the row's units, after a warm-up, on the `default-executor` lane (the contest's)
/// (``Workload/readings(on:_:_:)``).
package enum GlobalJobCount {
    /// The counts' CSV: one row per workload configuration with an allocation probe (W11–W13, W24, W25).
    package static let header = ["workload", "parameters", "jobs_per_unit", "other_tasks"]

    /// What a row sent through the global executor while it was timed.
    package struct Count: Sendable, Equatable {
        /// Jobs per unit.
        package var jobsPerUnit: Double
        /// Tasks other than the timed one whose jobs passed (first seen while the row was timed).
        package var otherTasks: Int

        package init(jobsPerUnit: Double, otherTasks: Int) {
            self.jobsPerUnit = jobsPerUnit
            self.otherTasks = otherTasks
        }

        /// The row's work passed the global executor only as a few stray jobs of its own task (fewer than one in
        /// 1 / ``strayJobsPerUnit`` units: SwiftNIO's takeover moves the timed task onto a loop once), and no other
        /// task's: the executor had nothing to decide.
        package var leftNothingToDecide: Bool { otherTasks == 0 && jobsPerUnit < GlobalJobCount.strayJobsPerUnit }
    }

    /// Below this many jobs a unit (and with no other task) a row left the global executor nothing to decide.
    package static let strayJobsPerUnit = 0.001

    /// What `workload` with `parameters` sent; nil where it has no loop to count (no allocation probe) or the
    /// runtime has no hook.
    package static func count(_ workload: Workload, _ parameters: Parameters) -> Count? {
        guard workload.countsInAChildProcess,
            let backend = Backend.references.first(where: { $0.id == .defaultExecutor })
        else { return nil }
        let counter = JobCounter()
        guard GlobalEnqueueHook.add(counter) else { return nil }
        defer { GlobalEnqueueHook.remove(counter) }
        guard let (before, after, units) = workload.readings(on: backend, parameters, { counter.reading }) else {
            return nil
        }
        return Count(
            jobsPerUnit: Double(after.jobs - before.jobs) / Double(max(1, units)),
            otherTasks: after.tasks - before.tasks)
    }

    /// The child's output: every configuration at `scale` of each of `workloads` that has a loop to count.
    package static func csv(_ workloads: [WorkloadID], scale: Scale) -> String {
        var rows = [header]
        for workload in workloads.compactMap(Workload.withID) {
            for parameters in workload.parameters(at: scale) {
                guard let count = count(workload, parameters) else { continue }
                rows.append([
                    workload.id.rawValue, parameters.description, String(count.jobsPerUnit), String(count.otherTasks),
                ])
            }
        }
        return CSV.encode(rows)
    }

    /// A child's output read back, by row.
    package static func parse(_ text: String) throws -> [Key: Count] {
        let table = try CSVTable(text: text, source: "the global-job count", required: header)
        var counts: [Key: Count] = [:]
        for record in table.records {
            counts[try Key(record)] = try Count(record)
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
        init(_ record: CSVRecord) throws {
            self.init(
                workload: WorkloadID(rawValue: try record.text("workload")), parameters: try record.text("parameters"))
        }

        /// The row of a cell (any of its metrics and backends).
        init(_ cell: CellKey) { self.init(workload: cell.workload, parameters: cell.parameters.description) }
    }
}

extension GlobalJobCount.Count {
    init(_ record: CSVRecord) throws {
        self.init(
            jobsPerUnit: try record.number("jobs_per_unit"), otherTasks: Int(try record.number("other_tasks")))
    }
}

/// Counts the jobs it is offered, and the tasks they belong to, and takes none.
private final class JobCounter: GlobalJobInterceptor {
    private let seen = Locked<(jobs: Int, tasks: Set<UInt64>)>((0, []))

    var reading: (jobs: Int, tasks: Int) { seen.withLock { ($0.jobs, $0.tasks.count) } }

    func take(_ job: UnownedJob) -> Bool {
        let task = taskID(of: job)
        seen.withLock {
            $0.jobs += 1
            $0.tasks.insert(task)
        }
        return false
    }
}
