import Foundation
import SchedulerBench
import SchedulerConformance
import YourScheduler

// The kit's verdict on every rule for each scheduler, then a quick bench beside the thread pool, raw Dispatch and
// TestScheduler (W1 and W4 on the serial one; W1 and W21 on the virtual-time one, which the bench drives).
var unexpected = 0
for backend in [ConformanceBackend.queueScheduler, .stepScheduler] {
    for rule in ConformanceRules.rules(for: backend) {
        let result = backend.evaluate(rule)
        print(result.outcome.isFailure ? result.failureMessage : "\(result)")
        if result.outcome.isFailure { unexpected += 1 }
    }
}
// SchedulerKit's own schedulers are kit entries, measured as yours are; raw Dispatch is one of the runtime's references.
let run = try BenchYourOwn.run(
    [.queueScheduler, .stepScheduler, .subject(.threadPool), .subject(.testScheduler)], beside: [.rawDispatch],
    workloads: [.throughput, .pingPong, .observeOnDrain, .virtualSleepers], scale: .quick, output: "Results")
print(run.table)
print("Wrote \(run.folder.path)")
exit(unexpected == 0 ? 0 : 1)
