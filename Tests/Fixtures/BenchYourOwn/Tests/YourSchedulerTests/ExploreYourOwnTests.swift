import SchedulerExplorer
import Testing

/// A third party explores its own async code through SchedulerExplorer's public API: a cache that loads a missing
/// entry once, except that it checks and stores across an await, so two callers can both load.
@Suite struct ExploreYourOwnTests {
    @Test func explorationFindsTheDoubleLoadAndItsSeedReplaysIt() async throws {
        let body: @Sendable (Exploration) async throws -> Void = { _ in
            let cache = Cache()
            async let first = cache.value(for: "a")
            async let second: Int = {
                await Task.yield()
                await Task.yield()
                return await cache.value(for: "a")
            }()
            _ = await (first, second)
            let loads = await cache.loads
            try check(loads == 1, "loaded \(loads) times")
        }
        #expect(await explore(schedules: 1, strategy: .firstInFirstOut, body).failure == nil)
        let report = await explore(schedules: 500, strategy: .random, seed: 42, body)
        let failure = try #require(report.failure)
        let again = await replay(seed: failure.seed, strategy: .random, body)
        #expect(again.failure?.trace == failure.trace)
    }
}

private actor Cache {
    private var entries: [String: Int] = [:]
    private(set) var loads = 0

    func value(for key: String) async -> Int {
        if let value = entries[key] { return value }
        let value = await load(key)  // the bug: another caller misses the entry meanwhile and loads it again
        entries[key] = value
        return value
    }

    private func load(_ key: String) async -> Int {
        loads += 1
        await Task.yield()
        return key.count
    }
}
