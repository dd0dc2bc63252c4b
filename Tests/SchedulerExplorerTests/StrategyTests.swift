import Foundation
import SchedulerExplorer
import SchedulerKit
import Testing

/// A strategy of a user's own: the job that became ready last (a stack), one schedule whatever the seed. It is a
/// file of its own, as each built-in strategy is; nothing in SchedulerExplorer names it.
struct LastInFirstOutStrategy: SchedulingStrategy {
    init() {}
    init?(spelling: StrategySpelling) {
        guard spelling == Self().spelling else { return nil }
    }
    var spelling: StrategySpelling { StrategySpelling("lastInFirstOut") }
    var description: String { "last-in-first-out" }
    func makeChooser(seed: UInt64, choices: [Int]) -> any ScheduleChooser { Chooser() }

    final class Chooser: ScheduleChooser {
        func choose(among ready: ReadyJobs, step: Int) -> ReadyJob { ready.job(ofRank: ready.count - 1) }
    }
}

extension ExplorationStrategy {
    static let lastInFirstOut = ExplorationStrategy(LastInFirstOutStrategy())
}

@Suite struct StrategyTests {
    @Test(arguments: [
        ExplorationStrategy.firstInFirstOut, .random, .pct(depth: 3, steps: 40), .exhaustive(preemptions: 2),
    ])
    func aStrategyIsReadBackFromTheTextAReplayLineWrites(_ strategy: ExplorationStrategy) {
        let text = strategy.spelling.description
        #expect(ExplorationStrategy(text) == strategy, "\(text)")
        #expect(ExplorationStrategy(" \(text) ") == strategy, "\(text)")
    }

    @Test func theTextIsTheSwiftThatMakesTheStrategy() {
        #expect(ExplorationStrategy.random.spelling.description == ".random")
        #expect(ExplorationStrategy.pct(depth: 2, steps: 50).spelling.description == ".pct(depth: 2, steps: 50)")
        #expect(ExplorationStrategy.exhaustive(preemptions: 1).spelling.description == ".exhaustive(preemptions: 1)")
    }

    @Test(arguments: [
        "random", ".pct(depth: 2)", ".pct(steps: 2, depth: 2)", ".pct(depth: 0, steps: 5)", ".pct(depth: 2, steps: x)",
        ".exhaustive(preemptions: -1)", ".nothing", ".random(", "", ".lastInFirstOut",
    ])
    func textThatSpellsNoKnownStrategyIsNil(_ text: String) {
        #expect(ExplorationStrategy(text) == nil, "\(text)")
    }

    @Test func aStrategyOfYourOwnIsReadBackWhenNamed() {
        #expect(ExplorationStrategy(".lastInFirstOut", among: [LastInFirstOutStrategy.self]) == .lastInFirstOut)
    }

    /// Two tasks of a group each append their number; last in first out runs the second task's job first.
    @Test func aStrategyOfYourOwnChoosesTheSchedule() async throws {
        let report = await explore(schedules: 3, strategy: .lastInFirstOut) { _ in
            let order = Locked<[Int]>([])
            await withTaskGroup(of: Void.self) { group in
                for task in 1...2 { group.addTask { order.withLock { $0.append(task) } } }
            }
            if order.withLock({ $0 }) == [2, 1] { throw OrderSeen() }
        }
        let failure = try #require(report.failure, "last in first out never ran the second task first")
        #expect(failure.replayCall.hasSuffix("strategy: .lastInFirstOut)"), "\(failure.replayCall)")
        #expect(failure.description.contains("(last-in-first-out, seed "), "\(failure)")
    }

    @Test func aCrashNoteNamesAStrategyOfYourOwnAndItIsReadBack() async throws {
        let child = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = await explore(schedules: 2, strategy: .lastInFirstOut) { exploration in
                let missing: Int? = exploration.index == 1 ? nil : 1
                _ = missing!
            }
        }
        let note = String(decoding: try #require(child).standardErrorContent, as: UTF8.self)
        #expect(note.contains("strategy: .lastInFirstOut)"), "\(note)")
        #expect(ExplorationFailure(crashNote: note) == nil, "a strategy the reader was not told of reads as none")
        let failure = try #require(ExplorationFailure(crashNote: note, strategies: [LastInFirstOutStrategy.self]))
        #expect(failure.strategy == .lastInFirstOut && failure.schedule == 1, "\(failure)")
    }
}

private struct OrderSeen: Error {}

/// What a user meets: schedules counted from 1 in text, and the exploration's thread named for it.
@Suite struct ScheduleNamingTests {
    @Test func theFirstScheduleIsScheduleOne() async throws {
        let report = await explore(schedules: 10, strategy: .random) { _ in throw OrderSeen() }
        let failure = try #require(report.failure)
        #expect(failure.schedule == 0)
        #expect(failure.description.hasPrefix("schedule 1 of 10 failed"), "\(failure)")
    }

    #if os(Linux)
        @Test func theSchedulesThreadCarriesTheExplorersName() async throws {
            let name = Locked<String?>(nil)
            _ = await explore(schedules: 1) { _ in
                let comm = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
                name.withLock { $0 = comm?.trimmingCharacters(in: .whitespacesAndNewlines) }
            }
            #expect(name.withLock { $0 } == "explorer")
        }
    #endif
}
