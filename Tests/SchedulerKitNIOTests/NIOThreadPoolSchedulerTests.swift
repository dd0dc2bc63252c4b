#if NIO
    import Dispatch
    import NIOPosix
    import SchedulerKit
    import SchedulerKitNIO
    import Synchronization
    import TestSupport
    import Testing

    @Suite struct NIOThreadPoolSchedulerTests {
        @Test func serialOnlyOnAPoolOfOneThread() {
            withThreadPool(threads: 1) { pool in
                let scheduler = NIOThreadPoolScheduler(name: "one", pool: pool)
                #expect(scheduler.traits == [.serial, .asynchronous, .shutdown, .setsCurrent, .sharedThreads])
            }
            withThreadPool(threads: 2) { pool in
                let scheduler = NIOThreadPoolScheduler(name: "two", pool: pool)
                #expect(!scheduler.traits.contains(.serial))
                #expect(!scheduler.traits.contains(.timed))
            }
        }

        @Test func workRunsWithTheSchedulerCurrentAndCannotBeCancelled() {
            withThreadPool { pool in
                let scheduler = NIOThreadPoolScheduler(name: "work", pool: pool)
                let blocker = Gate.blocking(scheduler)
                let current = Shared(false)
                let ran = DispatchSemaphore(value: 0)
                let handle = scheduler.schedule {
                    current.set(Schedulers.current === scheduler)
                    ran.signal()
                }
                #expect(!handle.cancel())
                #expect(!handle.isCancelled)
                blocker.open()
                #expect(waited(ran))
                #expect(current.value)
                #expect(!scheduler.isShutDown)
            }
        }

        @Test func shutdownTellsQueuedWorkItIsCancelledAndRefusesLaterWork() {
            withThreadPool { pool in
                let scheduler = NIOThreadPoolScheduler(name: "shutdown", pool: pool)
                let other = NIOThreadPoolScheduler(name: "other", pool: pool)
                // The first task shuts the pool down while ten more wait behind it (from a pool task: returns at once).
                let go = DispatchSemaphore(value: 0)
                scheduler.schedule {
                    go.wait()
                    scheduler.shutdown()
                }
                let ran = Shared(0)
                let queued = (0..<10).map { _ in scheduler.schedule { ran.update { $0 += 1 } } }
                go.signal()
                // From outside: waits until the pool's threads ended and the queued items were told.
                scheduler.shutdown()
                #expect(scheduler.isShutDown)
                #expect(queued.filter { !$0.isCancelled }.isEmpty, "NIO tells queued items .cancelled")
                #expect(ran.value == 0)
                let refused = other.schedule { ran.update { $0 += 1 } }
                #expect(refused.isCancelled, "a submission after shutdown is told .cancelled at once")
                #expect(other.isShutDown, "the pool refused this scheduler's work")
                #expect(ran.value == 0)
            }
        }

        @Test func shutdownFromOneOfThePoolsTasksReturns() {
            withThreadPoolThatMayBlock { pool in
                let scheduler = NIOThreadPoolScheduler(name: "inside", pool: pool)
                let returned = DispatchSemaphore(value: 0)
                scheduler.schedule {
                    scheduler.shutdown()
                    returned.signal()
                }
                guard waited(returned) else {
                    Issue.record("shutdown() in one of the pool's tasks waited for its own thread")
                    return false
                }
                scheduler.shutdown()  // from outside: waits until the pool is down
                #expect(scheduler.schedule {}.isCancelled)
                return true
            }
        }

        /// On one of the pool's threads with no scheduler current (under `Schedulers.immediate`, or in an item
        /// submitted to the pool itself), shutdown must not wait for its own thread either.
        @Test(arguments: ["under Schedulers.immediate", "in a raw pool item"])
        func shutdownFromAPoolThreadWithNoSchedulerCurrentReturns(_ how: String) {
            withThreadPoolThatMayBlock { pool in
                let scheduler = NIOThreadPoolScheduler(name: "nested", pool: pool)
                let ranOne = DispatchSemaphore(value: 0)
                scheduler.schedule { ranOne.signal() }  // the pool's one thread has run an item of the scheduler
                #expect(waited(ranOne))
                let returned = DispatchSemaphore(value: 0)
                if how == "in a raw pool item" {
                    pool.submit { _ in
                        scheduler.shutdown()
                        returned.signal()
                    }
                } else {
                    scheduler.schedule {
                        Schedulers.immediate.schedule {
                            scheduler.shutdown()
                            returned.signal()
                        }
                    }
                }
                guard waited(returned) else {
                    Issue.record("shutdown() \(how) waited for its own thread")
                    return false
                }
                scheduler.shutdown()
                return true
            }
        }
    }
#endif
