#if Combine
    import Dispatch
    import Foundation
    import SchedulerKit
    import Testing

    @testable import SchedulerBench
    @testable import SchedulerBenchTool

    /// Combine's schedulers in the bench: every workload their capabilities allow, beside the primitive each wraps.
    @Suite struct CombineBackendsTests {
        @Test func runLoopLanesSkipTheWorkloadsThatWaitForOneTaskAtATime() {
            // RunLoop.perform does not wake a sleeping loop on Linux: each step of W4, W5, W8 and W11–W13 would wait for
            // the serving thread's next slice, so those do not run on it.
            #expect(Catalog.backend(.combineRunLoop)?.has(.promptWakeUp) == false)
            #expect(
                NIOBackendsTests.workloads(.combineRunLoop) == [
                    "W1", "W2", "W3", "W6", "W9", "W10", "W14", "W15", "W16", "W17", "W18", "W19", "W20",
                ])
            #expect(NIOBackendsTests.workloads(.combineDispatch)?.contains("W4") == true)
            #expect(NIOBackendsTests.workloads(.defaultExecutor) == ["W11", "W12", "W13", "W24", "W25"])
        }

        @Test func eachCombineLaneIsReportedAgainstThePrimitiveItWraps() {
            #expect(Catalog.backend(.combineDispatch)?.wraps == .rawDispatchGlobal)
            #expect(Catalog.backend(.combineOperationQueue)?.wraps == .rawOperationQueue)
            #expect(Catalog.backend(.combineImmediate)?.wraps == .directCall)
            #expect(Catalog.backend(.combineRunLoop)?.wraps == nil)
        }

        @Test func runLoopLanesShareOneServingThreadPerCore() throws {
            let lanes = try #require(Catalog.backend(.combineRunLoop)).instance()
            defer { lanes.shutdown() }
            let targets = lanes.lanes(Clock.cores + 1, prefix: "w3")
            // The thread's identity, not its name: on Linux a thread's name is the one it inherited from its creator.
            func thread(_ lane: any Lane) -> pthread_t? {
                let thread = Locked<pthread_t?>(nil)
                let ran = DispatchSemaphore(value: 0)
                lane.submit {
                    thread.withLock { $0 = pthread_self() }
                    ran.signal()
                }
                ran.wait()
                return thread.withLock { $0 }
            }
            // Lanes take the threads in turn: the lane after the last core's is back on the first thread.
            #expect(thread(targets[0]) == thread(targets[Clock.cores]))
            if Clock.cores > 1 { #expect(thread(targets[0]) != thread(targets[1])) }
            let name = Locked<String?>(nil)
            let ran = DispatchSemaphore(value: 0)
            targets[0].submit {
                name.withLock { $0 = Thread.current.name }
                ran.signal()
            }
            ran.wait()
            #expect(name.withLock { $0 } == "bench-runloop-0")
        }
    }
#endif
