import Dispatch
import Foundation
import Testing

@testable import SchedulerConformance

/// S1's forced rounds give Dispatch's pools idle threads first: a process that holds some of their threads must not
/// let a "serial" scheduler that is really the global queue pass.
@Suite struct SpareDispatchThreadsTests {
    @Test func s1CatchesTheGlobalQueueWhileThePoolsAreTaken() {
        let released = Counter()
        // A sleeping block on three pools for the whole check: the warm-up must grow each pool past it.
        for qos in [DispatchQoS.QoSClass.default, .userInitiated, .utility] {
            DispatchQueue.global(qos: qos).async { while released.value == 0 { usleep(1_000) } }
        }
        defer { released.increment() }
        let result = ConformanceBackend(name: "global queue posing as serial") { GlobalQueueAsSerialScheduler() }
            .evaluate(SerialRules.exclusion)
        guard case .failed(let detail) = result.outcome else {
            Issue.record("S1 passed a scheduler that runs tasks on the global queue: \(result)")
            return
        }
        #expect(detail.contains("a second task started while the first was still running"))
    }
}
