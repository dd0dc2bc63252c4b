import Dispatch
import SchedulerKit
import TestSupport
import Testing

@Suite struct SubscriptionSchedulerTests {
    @Test func inlineWhenASchedulerIsCurrent() {
        let outer = TestScheduler(name: "outer")
        let seen = Shared<[String]>([])
        Schedulers.performAsCurrent(outer) {
            let handle = Schedulers.subscription.schedule {
                seen.update { $0.append("inline:\(Schedulers.current?.name ?? "nil")") }
            }
            seen.update { $0.append("after") }
            #expect(!handle.cancel())
        }
        #expect(seen.value == ["inline:outer", "after"])
    }

    @Test func backgroundWhenNoSchedulerIsCurrent() {
        let ranOn = Shared<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        Schedulers.subscription.schedule {
            ranOn.update { $0 = Schedulers.current?.name }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(ranOn.value == Schedulers.subscription.background.name)
    }
}
