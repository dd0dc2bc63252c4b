#if NIO
    import SchedulerConformance
    import Testing

    @testable import SchedulerBench
    @testable import SchedulerBenchPeers
    @testable import SchedulerBenchTool

    /// SwiftNIO in the bench: every workload its capabilities allow, beside the primitive its adapter wraps.
    @Suite struct NIOBackendsTests {
        static func workloads(_ id: BackendID) -> [String]? {
            Catalog.backend(id).map { backend in Workload.all.filter { $0.supports(backend) }.map(\.id.rawValue) }
        }

        @Test func theEventLoopRunsEveryWorkloadButCancellation() {
            // W7 needs handles that cancel plain work; EventLoop.execute has no cancellation.
            #expect(
                Self.workloads(.nioEventLoop) == [
                    "W1", "W2", "W3", "W4", "W5", "W6", "W8", "W9", "W10", "W11", "W12", "W13", "W14", "W15", "W16",
                    "W17", "W18", "W19", "W20", "W24", "W25",
                ])
            #expect(Catalog.backend(.nioEventLoop)?.wraps == .rawNIOExecute)
            #expect(Catalog.backend(.rawNIOExecute)?.isReference == true)
            // W18 needs a timed scheduler for Combine's `receive(on:)`; the raw primitive is not one. Its actors run on
            // the loop's own executor (W11–W13).
            #expect(
                Self.workloads(.rawNIOExecute) == [
                    "W1", "W2", "W3", "W4", "W5", "W6", "W9", "W10", "W11", "W12", "W13", "W14", "W15", "W16", "W17",
                    "W24", "W25",
                ])
        }

        @Test func theThreadPoolHasNoTimersAndNoCancellation() {
            #expect(
                Self.workloads(.nioThreadPool) == [
                    "W1", "W2", "W3", "W4", "W5", "W8", "W9", "W10", "W11", "W12", "W13", "W14", "W15", "W16", "W17",
                    "W24", "W25",
                ])
        }

        @Test func lanesOfOneInstanceTakeTheLoopsInTurn() throws {
            let lanes = try #require(Catalog.backend(.rawNIOExecute)).instance()
            defer { lanes.shutdown() }
            let first = try #require(lanes.lane("a") as? EventLoopLane)
            let second = try #require(lanes.lane("b") as? EventLoopLane)
            #expect((first.loop === second.loop) == (Clock.cores == 1))
        }
    }
#endif
