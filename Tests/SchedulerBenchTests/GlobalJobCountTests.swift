import Foundation
@_spi(Explorer) import SchedulerKit
import Synchronization
import Testing

@testable import SchedulerBench
@testable import SchedulerBenchTool

/// Why no global executor can be ahead on W11 and W13 with default actors (`bench global-executors`): their calls
/// and round trips send no job through the global executor. The runtime switches a task onto an idle default actor
/// and back in place, on the thread it runs on; what a row measures is that switch, the same under every global
/// executor. Counted in a child process (every job of the process passes the hook): jobs through the global-enqueue
/// hook per unit, the difference between a run of the row's units and an empty run, as the allocation pass counts.
/// W12 (a task started and awaited) is the counter's positive control. Measured: W11 (either caller) and W13 0.0 jobs
/// per unit, W12 2.0 per task.
@Suite struct GlobalJobCountTests {
    static let failed = "failed: "

    @Test func defaultActorCallsSendNoJobThroughTheGlobalExecutor() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            GlobalJobCountTests.checkJobsPerUnit()
        }
        let output = result.map { String(decoding: $0.standardOutputContent, as: UTF8.self) } ?? ""
        for line in output.split(separator: "\n") where line.hasPrefix(Self.failed) {
            Issue.record("the child: \(line.dropFirst(Self.failed.count))")
        }
    }

    static func checkJobsPerUnit() {
        for (workload, caller) in [(WorkloadID.actorHop, "global"), (.actorHop, "backend"), (.actorPingPong, nil)] {
            let perUnit = jobsPerUnit(workload, caller: caller)
            if perUnit >= 0.01 {
                print(failed + "\(workload) \(caller ?? "") sent \(perUnit) jobs per unit through the global executor")
            }
        }
        let perTask = jobsPerUnit(.taskLifecycle, caller: "global")
        if perTask < 1 { print(failed + "W12 sent \(perTask) jobs per task: the counter saw no task start") }
    }

    /// Jobs through the hook per unit of `workload` on the `default-executor` lane (its first quick configuration
    /// with `caller`), after a warm-up run.
    static func jobsPerUnit(_ workload: WorkloadID, caller: String?) -> Double {
        guard let workload = Workload.withID(workload), let probe = workload.allocationProbe,
            let backend = Catalog.backend(.defaultExecutor),
            let parameters = workload.parameters(at: .quick).first(where: {
                caller == nil || $0.choice(.caller) == caller
            })
        else { return .nan }
        let lanes = backend.instance()
        defer { lanes.shutdown() }
        let units = probe.units(parameters)
        let counter = JobCounter()
        guard GlobalEnqueueHook.add(counter) else { return .nan }
        defer { GlobalEnqueueHook.remove(counter) }
        func jobs(_ count: Int) -> Int {
            let loop = probe.prepare(lanes, parameters)
            let before = counter.jobs.load(ordering: .acquiring)
            _ = loop.run(count)
            return counter.jobs.load(ordering: .acquiring) - before
        }
        _ = jobs(units)
        let empty = jobs(0)
        return Double(jobs(units) - empty) / Double(units)
    }
}

/// Counts the jobs it is offered and takes none.
private final class JobCounter: GlobalJobInterceptor {
    let jobs = Atomic<Int>(0)
    func take(_ job: UnownedJob) -> Bool {
        jobs.add(1, ordering: .relaxed)
        return false
    }
}
