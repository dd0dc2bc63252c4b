import Dispatch
import SchedulerKit
import TestSupport
import Testing

@Suite struct MainQueueTests {
    /// Under `swift test` the runner's async main has called `dispatchMain()`, so Dispatch serves the main queue
    /// (on Linux, from a worker thread once the main thread has parked). A plain program must pump it instead.
    @Test func mainSchedulerRunsWhileTheMainQueueIsServed() {
        let order = Shared<[Int]>([])
        let current = Shared<[Bool]>([])
        for i in 0..<100 {
            Schedulers.main.schedule {
                current.update { $0.append(Schedulers.current === Schedulers.main) }
                order.append(i)
            }
        }
        #expect(eventually(timeout: .seconds(10)) { order.value.count == 100 })
        #expect(order.value == Array(0..<100))
        #expect(current.value.allSatisfy { $0 })
    }
}
