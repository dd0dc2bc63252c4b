import Foundation
import SchedulerExplorer
import SchedulerKit
import Testing

/// Code that starts work with a plain `Task { }`, as app code does: the exploration captures such tasks from the
/// global executor, so a fire-and-forget bug is found and replays every time, and its correction (awaiting the task)
/// passes every schedule instead of failing as a job from outside.
@Suite struct UnstructuredTaskTests {
    /// A cart whose `add` saves in a task of its own and returns: a reader right after may not see the item.
    static func fireAndForget(_ cart: Cart) { Task { await cart.store("apple") } }
    /// The correction: the save is awaited.
    static func awaited(_ cart: Cart) async { await Task { await cart.store("apple") }.value }

    static let settings = ExplorationSettings(outsideWait: .milliseconds(200))

    @Test(arguments: [ExplorationStrategy.random, .pct(depth: 2, steps: 20)])
    func aFireAndForgetBugIsFoundAndReplaysTwentyOfTwenty(_ strategy: ExplorationStrategy) async throws {
        let body: @Sendable (Exploration) async throws -> Void = { _ in
            let cart = Cart()
            Self.fireAndForget(cart)
            let count = await cart.count
            try check(count == 1, "the cart has \(count) items right after add")
        }
        let report = await explore(schedules: 200, strategy: strategy, seed: 5, settings: Self.settings, body)
        let failure = try #require(report.failure, "not found in 200 schedules of \(strategy)")
        #expect(failure.reason.contains("the cart has 0 items"), "\(failure.reason)")
        var identical = 0
        for _ in 0..<20 {
            let again = await replay(seed: failure.seed, strategy: strategy, settings: Self.settings, body)
            if again.failure?.trace == failure.trace { identical += 1 }
        }
        #expect(identical == 20, "\(identical) of 20 replays gave the same trace")
    }

    /// A later job of a task the schedule took stays inside, though it comes from another thread: a continuation
    /// resumed from a plain thread 100 ms after the task began to wait (a resume before the task has suspended
    /// continues it in place, so the check would pass however the capture behaved; 100 ms makes that rare).
    @Test func aCapturedTasksLaterJobFromAnotherThreadStaysInside() async {
        let (inside, report) = await BoundaryTests.runsInside { exploration in
            await Task {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    Thread.detachNewThread {
                        Thread.sleep(forTimeInterval: 0.1)
                        continuation.resume()
                    }
                }
                return Schedulers.current === exploration.scheduler
            }.value
        }
        #expect(inside == true, "the task's job after the resume ran outside the schedule: \(report)")
    }

    @Test(arguments: [ExplorationStrategy.firstInFirstOut, .random, .pct(depth: 2, steps: 20)])
    func theCorrectionPassesEverySchedule(_ strategy: ExplorationStrategy) async {
        let report = await explore(schedules: 200, strategy: strategy, seed: 5, settings: Self.settings) { _ in
            let cart = Cart()
            await Self.awaited(cart)
            let count = await cart.count
            try check(count == 1, "the cart has \(count) items after an awaited add")
        }
        #expect(report.failure == nil, "\(report)")
        #expect(report.allowedOutside.isEmpty)
    }
}

actor Cart {
    private var items: [String] = []
    func store(_ item: String) { items.append(item) }
    var count: Int { items.count }
}
