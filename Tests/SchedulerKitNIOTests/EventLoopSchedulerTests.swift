#if NIO
    import Dispatch
    import NIOCore
    import NIOPosix
    import SchedulerKit
    import SchedulerKitNIO
    import Synchronization
    import TestSupport
    import Testing

    @Suite struct EventLoopSchedulerTests {
        @Test func traitsAreWhatNIOPromises() {
            withEventLoop { loop in
                let scheduler = EventLoopScheduler(name: "traits", eventLoop: loop)
                #expect(scheduler.traits == EventLoopScheduler.traits)
                #expect(scheduler.traits.isSuperset(of: [.serial, .asynchronous, .timed, .repeating, .setsCurrent]))
                #expect(scheduler.traits.isDisjoint(with: [.fixedRate, .shutdown, .virtualTime, .trampoline]))
                #expect(!(scheduler is any ShutdownScheduler))
            }
        }

        @Test func plainWorkRunsOnTheLoopWithTheSchedulerCurrent() {
            withEventLoop { loop in
                let scheduler = EventLoopScheduler(name: "plain", eventLoop: loop)
                let onLoop = Shared(false)
                let current = Shared(false)
                let done = DispatchSemaphore(value: 0)
                scheduler.schedule {
                    onLoop.set(loop.inEventLoop)
                    current.set(Schedulers.current === scheduler)
                    done.signal()
                }
                #expect(waited(done))
                #expect(onLoop.value && current.value)
                #expect(Schedulers.current == nil)
            }
        }

        @Test func plainWorkCannotBeCancelledAndRuns() {
            withEventLoop { loop in
                let scheduler = EventLoopScheduler(name: "uncancellable", eventLoop: loop)
                let blocker = Gate.blocking(scheduler)
                let ran = DispatchSemaphore(value: 0)
                let handle = scheduler.schedule { ran.signal() }
                #expect(!handle.cancel())
                #expect(!handle.isCancelled)
                blocker.open()
                #expect(waited(ran))
            }
        }

        @Test func theClockIsTheMonotonicClock() {
            withEventLoop { loop in
                let scheduler = EventLoopScheduler(name: "clock", eventLoop: loop)
                let before = SchedulerTime.monotonicNow()
                let now = scheduler.now
                let after = SchedulerTime.monotonicNow()
                #expect(before <= now && now <= after)
            }
        }

        @Test func delayedWorkIsNeverEarlyAndRunsWithTheSchedulerCurrent() {
            withEventLoop { loop in
                let scheduler = EventLoopScheduler(name: "delayed", eventLoop: loop)
                let deadline = scheduler.now + .milliseconds(20)
                let startedAt = Shared<SchedulerTime?>(nil)
                let current = Shared(false)
                let done = DispatchSemaphore(value: 0)
                let handle = scheduler.schedule(at: deadline) {
                    startedAt.set(SchedulerTime.monotonicNow())
                    current.set(Schedulers.current === scheduler)
                    done.signal()
                }
                #expect(waited(done))
                #expect(startedAt.value.map { $0 >= deadline } == true)
                #expect(current.value)
                #expect(!handle.cancel(), "cancel() of delayed work that ran must say it is too late")
                #expect(!handle.isCancelled)
            }
        }

        @Test func cancellingDelayedWorkBeforeItIsDueStopsItAndReleasesItsClosure() {
            withEventLoop { loop in
                let scheduler = EventLoopScheduler(name: "cancel", eventLoop: loop)
                let ran = Shared(false)
                weak var released: Capture?
                let handle: any Cancellable
                do {
                    let capture = Capture()
                    released = capture
                    handle = scheduler.schedule(at: scheduler.now + .seconds(3_600)) {
                        capture.touch()
                        ran.set(true)
                    }
                }
                #expect(released != nil)
                #expect(handle.cancel())
                #expect(handle.isCancelled)
                #expect(!handle.cancel(), "a second cancel() returns false")
                #expect(released == nil, "NIO takes a cancelled task off its timer heap at once")
                #expect(!ran.value)
            }
        }

        @Test func repeatingWorkIsFixedDelayAndStopsWhenCancelled() {
            withEventLoop { loop in
                let scheduler = EventLoopScheduler(name: "repeating", eventLoop: loop)
                let starts = Shared<[Int64]>([])
                let current = Shared(true)
                let fourth = DispatchSemaphore(value: 0)
                // Each tick works 15 ms; at a fixed rate of 10 ms ticks would start every 15 ms (back to back), at a fixed
                // delay every 25 ms (15 ms of work, then the 10 ms delay).
                let handle = scheduler.schedule(at: scheduler.now, every: .milliseconds(10)) {
                    let began = SchedulerTime.monotonicNow()
                    if Schedulers.current !== scheduler { current.set(false) }
                    var count = 0
                    starts.update {
                        $0.append(began.nanoseconds)
                        count = $0.count
                    }
                    while SchedulerTime.monotonicNow() < began + .milliseconds(15) {}
                    if count == 4 { fourth.signal() }
                }
                #expect(waited(fourth))
                #expect(handle.cancel())
                #expect(!handle.cancel())
                let atCancel = starts.value.count
                usleep(60_000)
                #expect(
                    starts.value.count <= atCancel + 1, "a cancel from another thread reaches the loop on its next turn"
                )
                let gaps = zip(starts.value, starts.value.dropFirst()).map { $1 - $0 }
                #expect(gaps.allSatisfy { $0 >= 25_000_000 }, "start-to-start gaps \(gaps) ns")
                #expect(current.value)
            }
        }

        @Test func groupShutdownRunsQueuedPlainWorkAndFailsDelayedWork() {
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            let scheduler = EventLoopScheduler(name: "shutdown", eventLoop: group.next())
            let plainRan = Shared(false)
            let delayedRan = Shared(false)
            let blocker = Gate.blocking(scheduler)
            scheduler.schedule { plainRan.set(true) }
            let delayed = scheduler.schedule(at: scheduler.now + .seconds(3_600)) { delayedRan.set(true) }
            let shutDown = DispatchSemaphore(value: 0)
            group.shutdownGracefully { _ in shutDown.signal() }
            blocker.open()
            #expect(waited(shutDown))
            #expect(plainRan.value, "NIO runs the plain work queued when the loop closes")
            #expect(!delayedRan.value, "NIO fails delayed work with EventLoopError.shutdown")
            #expect(!delayed.isCancelled, "the handle does not watch NIO's future, so it cannot know")
        }
    }
#endif
