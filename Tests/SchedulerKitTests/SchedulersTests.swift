import SchedulerKit
import TestSupport
import Testing

@Suite struct SchedulersTests {
    @Test func sharedSchedulersAreSingletons() {
        #expect(Schedulers.immediate === Schedulers.immediate)
        #expect(Schedulers.subscription === Schedulers.subscription)
        #expect(Schedulers.main === DispatchQueueScheduler.main)
    }

    @Test func factoriesMakeFreshSerialSchedulers() {
        let a = Schedulers.pooled(name: "a")
        let b = Schedulers.pooled(name: "b")
        #expect(a !== b && a.pool === b.pool && a.pool === ThreadPool.shared)
        #expect(ThreadPool.shared.threadCount == ThreadPool.activeProcessorCount)
        #expect(drain(a) && drain(b))
        let operations = Schedulers.operationQueue(name: "ops")
        #expect(operations.name == "ops" && drain(operations))
    }

    @Test func everySchedulerDeclaresItsTraits() {
        let expected: [(any Scheduler, SchedulerTraits)] = [
            (Schedulers.immediate, [.serial, .trampoline, .setsCurrent]),
            (
                DispatchQueueScheduler(name: "d"),
                [.serial, .asynchronous, .timed, .repeating, .fixedRate, .setsCurrent, .sharedThreads]
            ),
            (
                ThreadPool.shared.makeScheduler(name: "p"),
                [.serial, .asynchronous, .timed, .repeating, .fixedRate, .shutdown, .setsCurrent, .sharedThreads]
            ),
            (
                OperationQueueScheduler(name: "o"),
                [.serial, .asynchronous, .timed, .repeating, .fixedRate, .setsCurrent, .sharedThreads]
            ),
            (TestScheduler(), [.serial, .timed, .repeating, .fixedRate, .virtualTime, .setsCurrent]),
            (Schedulers.subscription, [.inlineUnderCurrent]),
        ]
        for (scheduler, traits) in expected {
            #expect(scheduler.traits == traits, "\(scheduler.name): \(scheduler.traits)")
            #expect(scheduler.traits.contains(.timed) == (scheduler is any TimedScheduler), "\(scheduler.name)")
            #expect(scheduler.traits.contains(.shutdown) == (scheduler is any ShutdownScheduler), "\(scheduler.name)")
        }
    }

    @Test func traitsDescribeThemselves() {
        #expect(SchedulerTraits([.serial, .timed]).description == "serial, timed")
    }
}
