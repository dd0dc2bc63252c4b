import Foundation
import SchedulerBench
import SchedulerConformance
import YourScheduler

// The kit's verdict on every rule, then a quick bench beside the thread pool and raw Dispatch.
var unexpected = 0
for rule in ConformanceRules.all {
    let result = ConformanceBackend.queueScheduler.evaluate(rule)
    print(result.outcome.isFailure ? result.failureMessage : "\(result)")
    if result.outcome.isFailure { unexpected += 1 }
}
let run = try BenchYourOwn.run(
    [.queueScheduler], beside: [.threadPool, .rawDispatch], workloads: [.throughput, .pingPong, .observeOnDrain],
    scale: .quick, output: "Results")
print(run.table)
print("Wrote \(run.folder.path)")
exit(unexpected == 0 ? 0 : 1)
