import Foundation
import SchedulerKit
import Testing

@testable import SchedulerExplorer

/// The exhaustive strategy: every schedule within its delay bound, each once, and a pass that says so.
@Suite struct ExhaustiveTests {
    static let settings = ExplorationSettings(outsideWait: .milliseconds(50))

    /// The walk over a tree of three choices between two jobs, where the task that ran last always has a job ready:
    /// within 1 preemption, the default order and the three that preempt once; with room for every preemption, all
    /// 2^3 orders, each once.
    @Test func theWalkVisitsEveryScheduleWithinTheBoundOnce() {
        func decisions(_ alternatives: [Int]) -> [PreemptionBound.Decision] {
            (0..<3).map {
                PreemptionBound.Decision(offered: 2, free: false, taken: $0 < alternatives.count ? alternatives[$0] : 0)
            }
        }
        func walk(_ bound: Int) -> [[Int]] {
            var seen: [[Int]] = []
            var choices: [Int]? = []
            while let current = choices {
                let made = decisions(current)
                seen.append(made.map(\.taken))
                choices = PreemptionBound.next(after: made, preemptions: bound)
            }
            return seen
        }
        #expect(walk(1) == [[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0]])
        #expect(walk(3).count == 8 && Set(walk(3)).count == 8, "\(walk(3))")
        // A free choice (the last task had nothing ready) costs nothing: both of its alternatives at bound 0.
        let free = [PreemptionBound.Decision(offered: 2, free: true, taken: 0)]
        #expect(PreemptionBound.next(after: free, preemptions: 0) == [1])
        #expect(PreemptionBound.rank(ofAlternative: 0, defaultRank: 2) == 2)
        #expect((1...3).map { PreemptionBound.rank(ofAlternative: $0, defaultRank: 2) } == [0, 1, 3])
    }

    /// The catalogue's lost update (two increments, each a read and a write through separate actor calls): one
    /// preemption between a read and its write loses an update. Exhaustive search within 1 preemption finds it, and
    /// its choices replay it, the same trace 20 times of 20.
    @Test func aLostUpdateIsFoundWithinOnePreemptionAndReplaysByItsChoices() async throws {
        let report = await explore(schedules: 10_000, strategy: .exhaustive(preemptions: 1), settings: Self.settings) {
            exploration in
            try await AsyncBug.lostUpdate.program(.exploring(exploration))
        }
        let failure = try #require(report.failure, "\(report)")
        print(
            "exhaustive: the lost update within 1 preemption: schedule \(failure.schedule + 1), choices \(failure.choices)"
        )
        #expect(!failure.choices.isEmpty)
        #expect(failure.replayCall.hasPrefix("replay(choices: "))
        var identical = 0
        for _ in 0..<20 {
            let again = await replay(
                choices: failure.choices, strategy: .exhaustive(preemptions: 1), settings: Self.settings
            ) {
                exploration in
                try await AsyncBug.lostUpdate.program(.exploring(exploration))
            }
            if again.failure?.trace == failure.trace { identical += 1 }
        }
        #expect(identical == 20, "\(identical) of 20 replays gave the same trace")
    }

    /// A body that passes: the exploration ends when the bound is exhausted, says so, and counts its schedules, each
    /// distinct.
    @Test func aPassWithinTheBoundSaysItIsExhausted() async {
        let report = await explore(schedules: 10_000, strategy: .exhaustive(preemptions: 2), settings: Self.settings) {
            _ in
            let counter = Counter()
            async let a: Void = counter.add(1)
            async let b: Void = counter.add(2)
            _ = await (a, b)
            try check(await counter.value == 3, "lost an add")
        }
        #expect(report.failure == nil, "\(report)")
        #expect(report.exhausted == true, "\(report)")
        #expect(report.schedules > 1 && report.schedules < 10_000)
        #expect(report.distinctSchedules == report.schedules, "\(report)")
        #expect(report.description.hasPrefix("all \(report.schedules) schedules within the bound passed"))
    }

    /// Random exploration says how many of its schedules were distinct: a body with two orders has at most two.
    @Test func randomSaysHowManyOfItsSchedulesWereDistinct() async {
        let report = await explore(schedules: 50, strategy: .random, seed: 3, settings: Self.settings) { _ in
            let counter = Counter()
            async let a: Void = counter.add(1)
            _ = await a
        }
        #expect(report.failure == nil)
        #expect(report.exhausted == nil)
        #expect(report.distinctSchedules >= 1 && report.distinctSchedules < report.schedules, "\(report)")
    }

    actor Counter {
        var value = 0
        func add(_ amount: Int) { value += amount }
    }
}

/// What the exhaustive strategy finds of the catalogue, preemption bound by bound (printed for `Docs/Exploring.md`; the counts
/// are exact, the walk being the same every run).
@Suite struct ExhaustiveCatalogueTests {
    @Test(arguments: AsyncBug.all)
    func theCatalogueByDelayBound(_ bug: AsyncBug) async {
        var line = "exhaustive: \(bug):"
        for bound in 0...3 {
            let report = await explore(
                schedules: 5_000, strategy: .exhaustive(preemptions: bound), settings: ExhaustiveTests.settings
            ) { exploration in
                try await bug.program(.exploring(exploration))
            }
            if let failure = report.failure {
                line += " found within \(bound) (schedule \(failure.schedule + 1))"
                break
            }
            line += " \(bound): \(report.exhausted == true ? "all" : "the first") \(report.schedules) pass;"
        }
        print(line)
    }
}
