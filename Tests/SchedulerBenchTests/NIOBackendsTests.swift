import Testing
@testable import SchedulerBench

/// SwiftNIO in the bench: every workload its capabilities allow, beside the primitive its adapter wraps.
@Suite struct NIOBackendsTests {
    static func workloads(_ name: String) -> [String]? {
        Backend.named(name).map { backend in Workload.all.filter { $0.supports(backend) }.map(\.id) }
    }

    @Test func theEventLoopRunsEveryWorkloadButCancellation() {
        // W7 needs handles that cancel plain work; EventLoop.execute has no cancellation.
        #expect(Self.workloads("nio-eventloop") == ["W1", "W2", "W3", "W4", "W5", "W6", "W8", "W9", "W10", "W11", "W12", "W13", "W14"])
        #expect(Backend.named("nio-eventloop")?.wraps == Backend.rawNIOExecuteName)
        #expect(Backend.named(Backend.rawNIOExecuteName)?.isReference == true)
        #expect(Self.workloads(Backend.rawNIOExecuteName) == ["W1", "W2", "W3", "W4", "W5", "W6", "W9", "W10", "W14"])
    }

    @Test func theThreadPoolHasNoTimersAndNoCancellation() {
        #expect(Self.workloads("nio-threadpool") == ["W1", "W2", "W3", "W4", "W5", "W8", "W9", "W10", "W11", "W12", "W13", "W14"])
    }

    @Test func lanesOfOneInstanceTakeTheLoopsInTurn() throws {
        let lanes = try #require(Backend.named(Backend.rawNIOExecuteName)).instance()
        defer { lanes.shutdown() }
        let first = try #require(lanes.lane("a") as? EventLoopLane), second = try #require(lanes.lane("b") as? EventLoopLane)
        #expect((first.loop === second.loop) == (Clock.cores == 1))
    }
}
