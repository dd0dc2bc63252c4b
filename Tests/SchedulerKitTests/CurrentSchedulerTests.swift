import Dispatch
import Foundation
import SchedulerKit
import TestSupport
import Testing

@Suite struct CurrentSchedulerTests {
    @Test func nilOutsideEveryTask() {
        #expect(Schedulers.current == nil)
    }

    @Test func performAsCurrentNestsAndRestores() {
        let a = TestScheduler(name: "a")
        let b = TestScheduler(name: "b")
        var seen: [String?] = []
        Schedulers.performAsCurrent(a) {
            seen.append(Schedulers.current?.name)
            Schedulers.performAsCurrent(b) {
                seen.append(Schedulers.current?.name)
                Schedulers.performAsCurrent(a) { seen.append(Schedulers.current?.name) }
                seen.append(Schedulers.current?.name)
            }
            seen.append(Schedulers.current?.name)
        }
        seen.append(Schedulers.current?.name)
        #expect(seen == ["a", "b", "a", "b", "a", nil])
    }

    @Test func isPerThread() {
        let a = TestScheduler(name: "a")
        let otherThreadSaw = Shared<String?>("unset")
        Schedulers.performAsCurrent(a) {
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                otherThreadSaw.update { $0 = Schedulers.current?.name }
                done.signal()
            }
            done.wait()
        }
        #expect(otherThreadSaw.value == nil)
    }
}
