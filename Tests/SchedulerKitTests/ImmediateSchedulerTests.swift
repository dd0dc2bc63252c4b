import SchedulerKit
import TestSupport
import Testing

@Suite struct ImmediateSchedulerTests {
    @Test func nestedWorkIsTrampolinedInFIFOOrder() {
        let order = Shared<[Int]>([])
        let immediate = Schedulers.immediate
        immediate.schedule {
            order.append(1)
            immediate.schedule {
                order.append(3)
                immediate.schedule { order.append(5) }
            }
            immediate.schedule { order.append(4) }
            order.append(2)
        }
        #expect(order.value == [1, 2, 3, 4, 5])
    }

    @Test func runsNowAndReturnsAFinishedHandle() {
        let ran = Shared(false)
        let handle = Schedulers.immediate.schedule { ran.update { $0 = true } }
        #expect(ran.value)
        #expect(!handle.cancel() && !handle.isCancelled)
    }

    @Test func trampolinedWorkCanBeCancelledBeforeItStarts() {
        let order = Shared<[Int]>([])
        Schedulers.immediate.schedule {
            let second = Schedulers.immediate.schedule { order.append(2) }
            Schedulers.immediate.schedule { order.append(3) }
            #expect(second.cancel())
            order.append(1)
        }
        #expect(order.value == [1, 3])
    }

    @Test func setsItselfCurrentAndRestoresTheOuterScheduler() {
        let outer = TestScheduler(name: "outer")
        let seen = Shared<[String?]>([])
        Schedulers.performAsCurrent(outer) {
            Schedulers.immediate.schedule { seen.update { $0.append(Schedulers.current?.name) } }
            seen.update { $0.append(Schedulers.current?.name) }
        }
        #expect(seen.value == ["immediate", "outer"])
        #expect(Schedulers.current == nil)
    }

    @Test func declaresItsTraits() {
        #expect(Schedulers.immediate.traits.contains(.trampoline))
        #expect(!Schedulers.immediate.traits.contains(.asynchronous))
        #expect(!Schedulers.immediate.traits.contains(.timed))
    }
}
