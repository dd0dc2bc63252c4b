#if Combine
    import Dispatch
    import SchedulerKit
    import SchedulerKitCombine
    import TestSupport
    import Testing

    #if canImport(Combine)
        import Combine
    #else
        import OpenCombine
    #endif

    /// Real Combine pipelines (OpenCombine's operators on Linux) on SchedulerKit schedulers.
    @Suite struct CombineSchedulerTests {
        /// A value and the virtual millisecond it arrived at.
        struct Arrival: Equatable, Sendable {
            let value: Int
            let millisecond: Int64
        }

        @Test func debounceAndDelayRunInVirtualTime() {
            let test = TestScheduler()
            let subject = PassthroughSubject<Int, Never>()
            let arrivals = Shared<[Arrival]>([])
            let subscription =
                subject
                .debounce(for: .milliseconds(300), scheduler: test.combine)
                .delay(for: .milliseconds(100), scheduler: test.combine)
                .sink { arrivals.append(Arrival(value: $0, millisecond: test.now.nanoseconds / 1_000_000)) }

            subject.send(1)
            test.advance(by: .milliseconds(200))
            subject.send(2)  // restarts the debounce window: 2 leaves it at 500 ms and arrives at 600 ms
            test.advance(by: .milliseconds(299))
            #expect(arrivals.value.isEmpty, "nothing may arrive before the debounce window of the last value ends")
            test.advance(by: .milliseconds(1))
            #expect(arrivals.value.isEmpty, "the delay holds the debounced value for 100 ms more")
            test.advance(by: .milliseconds(99))
            #expect(arrivals.value.isEmpty)
            test.advance(by: .milliseconds(1))
            #expect(arrivals.value == [Arrival(value: 2, millisecond: 600)])

            subject.send(3)
            subject.send(4)
            guard case .drained = test.run() else {
                Issue.record("work was left queued")
                return
            }
            #expect(arrivals.value == [Arrival(value: 2, millisecond: 600), Arrival(value: 4, millisecond: 1_000)])
            withExtendedLifetime(subscription) {}
        }

        @Test func throttleKeepsTheLatestValuePerWindowInVirtualTime() {
            let test = TestScheduler()
            let subject = PassthroughSubject<Int, Never>()
            let arrivals = Shared<[Arrival]>([])
            let subscription =
                subject
                .throttle(for: .seconds(1), scheduler: test.combine, latest: true)
                .sink { arrivals.append(Arrival(value: $0, millisecond: test.now.nanoseconds / 1_000_000)) }

            for value in 1...5 {
                subject.send(value)
                test.advance(by: .milliseconds(300))
            }
            _ = test.run()
            // Every arrival is a value sent by then, and arrivals are at least the window apart after the first.
            let seen = arrivals.value
            #expect(seen.first == Arrival(value: 1, millisecond: 0))
            #expect(seen.count >= 2 && seen.count <= 3, "\(seen)")
            for (earlier, later) in zip(seen, seen.dropFirst()) {
                #expect(later.millisecond - earlier.millisecond >= 1_000, "\(seen)")
                #expect(later.value > earlier.value)
            }
            #expect(seen.last?.value == 5)
            withExtendedLifetime(subscription) {}
        }

        @Test func repeatingWorkTicksOnTheVirtualGridUntilCancelled() {
            let test = TestScheduler()
            let ticks = Shared<[Int64]>([])
            let combine = test.combine
            let timer = combine.schedule(after: combine.now.advanced(by: .seconds(1)), interval: .seconds(1)) {
                ticks.append(test.now.nanoseconds / 1_000_000)
            }
            test.advance(by: .milliseconds(3_500))
            #expect(ticks.value == [1_000, 2_000, 3_000])
            timer.cancel()
            test.advance(by: .seconds(5))
            #expect(ticks.value == [1_000, 2_000, 3_000])
        }

        @Test func receiveOnDeliversEveryValueInOrderOnThePool() {
            let pool = ThreadPool(threadCount: 2, name: "combine-tests")
            defer { pool.shutdown() }
            let receiver = pool.makeScheduler(name: "receiver")
            let received = Shared<[Int]>([])
            let onReceiver = Counter()
            let finished = DispatchSemaphore(value: 0)
            let subscription = (0..<1_000).publisher
                .receive(on: receiver.combine)
                .sink(
                    receiveCompletion: { _ in finished.signal() },
                    receiveValue: { value in
                        received.append(value)
                        if Schedulers.current === receiver { onReceiver.increment() }
                    })
            #expect(waited(finished))
            #expect(
                received.value == Array(0..<1_000), "a serial scheduler delivers values, then the completion, in order")
            #expect(onReceiver.value == 1_000)
            withExtendedLifetime(subscription) {}
        }

        @Test func subscribeOnSubscribesOnTheScheduler() {
            let scheduler = DispatchQueueScheduler(name: "subscriber")
            let subscribedOnScheduler = Shared<Bool?>(nil)
            let finished = DispatchSemaphore(value: 0)
            let subscription = Deferred { Just(Schedulers.current === scheduler) }
                .subscribe(on: scheduler.combine)
                .sink { value in
                    subscribedOnScheduler.set(value)
                    finished.signal()
                }
            #expect(waited(finished))
            #expect(subscribedOnScheduler.value == true)
            withExtendedLifetime(subscription) {}
        }

        @Test func delayOnARealSchedulerIsNeverEarly() {
            let scheduler = DispatchQueueScheduler(name: "delay")
            let sentAt = SchedulerTime.monotonicNow()
            let arrivedAt = Shared<SchedulerTime?>(nil)
            let finished = DispatchSemaphore(value: 0)
            let subscription = Just(1)
                .delay(for: .milliseconds(20), scheduler: scheduler.combine)
                .sink { _ in
                    arrivedAt.set(.monotonicNow())
                    finished.signal()
                }
            #expect(waited(finished))
            #expect(arrivedAt.value.map { $0 - sentAt >= .milliseconds(20) } == true)
            withExtendedLifetime(subscription) {}
        }
    }
#endif
