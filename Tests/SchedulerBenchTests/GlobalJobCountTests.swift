import Foundation
import Testing

@testable import SchedulerBench
@testable import SchedulerBenchTool

/// Why no global executor can be ahead on W11 and W13 with default actors (`bench global-executors`): their calls
/// and round trips send no job through the global executor. The runtime switches a task onto an idle default actor
/// and back in place, on the thread it runs on; what a row measures is that switch, the same under every global
/// executor. Counted in a child process (every job of the process passes the hook) by ``GlobalJobCount``, which
/// `bench global-executors` runs on each executor it pairs. W12 (a task started and awaited) is the counter's positive
/// control, W25 (one consumer task beside the timed one) the control that a row with another task always leaves a
/// decision. Measured on Dispatch: W11 (either caller) and W13 0.0 jobs per unit and no other task, W12 2.0 per task.
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
        let nothingToDecide: [(WorkloadID, ParameterName?, String?)] = [
            (.actorHop, .caller, "global"), (.actorHop, .caller, "backend"), (.actorPingPong, nil, nil),
        ]
        for (workload, name, choice) in nothingToDecide {
            let count = jobs(workload, name, choice)
            if count?.leftNothingToDecide != true {
                print(
                    failed + "\(workload) \(choice ?? "") sent \(String(describing: count)) through the global executor"
                )
            }
        }
        let tasks = jobs(.taskLifecycle, .caller, "global")
        if (tasks?.jobsPerUnit ?? 0) < 1 || (tasks?.otherTasks ?? 0) < 100 {
            print(failed + "W12 sent \(String(describing: tasks)): the counter saw no task start")
        }
        let pipeline = jobs(.actorPipeline, .consumer, "before")
        if pipeline?.otherTasks != 1 || pipeline?.leftNothingToDecide != false {
            print(failed + "W25 sent \(String(describing: pipeline)): the counter did not see its consumer task")
        }
    }

    /// What `workload` (its first quick configuration with `name` set to `choice`) sends through the hook.
    static func jobs(_ workload: WorkloadID, _ name: ParameterName?, _ choice: String?) -> GlobalJobCount.Count? {
        guard let workload = Workload.withID(workload),
            let parameters = workload.parameters(at: .quick).first(where: { parameters in
                name.map { parameters.choice($0) == choice } ?? true
            })
        else { return nil }
        return GlobalJobCount.count(workload, parameters)
    }
}
