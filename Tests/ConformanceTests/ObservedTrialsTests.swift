import Foundation
import SchedulerKit
import Testing

@testable import SchedulerConformance

extension Conformance {
    /// Sequential races: an observed check runs in rounds, stops at the first round that finds the defect, and its
    /// verdict carries the trials that ran (``ObservedTrials``).
    @Suite struct ObservedRounds {
        /// A context on a fresh session of a built-in backend, whose rounds may take `deadline / 2`.
        static func context(deadline: Duration) -> (ConformanceContext, ObservedTrials, ConformanceSession) {
            let backend = ConformanceBackend.dispatchQueue
            let session = backend.session(.conformance)
            let observed = ObservedTrials(deadline: deadline)
            let progress = CheckProgress(watch: CheckWatch(subject: ConformanceBackend.kind), observed: observed)
            return (ConformanceContext(backend: backend, session: session, progress: progress), observed, session)
        }

        @Test("Rounds run to the target when nothing goes wrong, and the pass says how many trials saw nothing")
        func roundsReachTheTarget() throws {
            let (context, observed, session) = Self.context(deadline: .seconds(3_600))
            defer { session.tearDown() }
            var seen: [Range<Int>] = []
            let ran = try context.observe(10_000, inRoundsOf: 2_500) { seen.append($0) }
            #expect(ran == 10_000 && observed.count == 10_000 && observed.shortOf == nil)
            #expect(seen == [0..<2_500, 2_500..<5_000, 5_000..<7_500, 7_500..<10_000])
            let evidence = RuleEvidence.observed(trials: 10_000, trial: "races")
            let outcome = RuleJudgement.outcome(evidence: evidence, observed: observed) { "note" }
            #expect(outcome == .passed(note: "note; \(evidence.passNote)"))
        }

        @Test("The first round that finds the defect ends the rounds, and the failure names it")
        func aFailingRoundStopsTheRounds() throws {
            let (context, observed, session) = Self.context(deadline: .seconds(3_600))
            defer { session.tearDown() }
            var rounds = 0
            #expect {
                try context.observe(10_000, inRoundsOf: 2_500) { trials in
                    rounds += 1
                    if trials.contains(6_000) { throw RuleFailure("race 6 001 lied") }
                }
            } throws: { error in
                (error as? RuleFailure)?.detail == "race 6 001 lied (in round 3 of 4, trials 5 001–7 500)"
            }
            #expect(rounds == 3 && observed.count == 7_500)
        }

        @Test("Rounds stop once half the deadline is spent, and the pass says what the trials that ran rule out")
        func aSpentBudgetStopsTheRoundsShort() throws {
            // A deadline of zero: its half is spent before the first round ends, so exactly one round runs.
            let (context, observed, session) = Self.context(deadline: .zero)
            defer { session.tearDown() }
            let ran = try context.observe(10_000, inRoundsOf: 2_500) { _ in }
            #expect(ran == 2_500 && observed.count == 2_500 && observed.shortOf == 10_000)
            let evidence = RuleEvidence.observed(trials: 10_000, trial: "races")
            let outcome = RuleJudgement.outcome(evidence: evidence, observed: observed) { "" }
            #expect(
                outcome
                    == .passed(
                        note:
                            "observed: 0 of 2 500 races went wrong; a defect that shows in more than 1 in 835 would have failed this with 95 % probability (stopped short of 10 000: its rounds may take 0.0 µs, half its deadline)"
                    ))
        }

        @Test("Series add up: C2's plain and delayed races count together")
        func seriesAddUp() throws {
            let (context, observed, session) = Self.context(deadline: .seconds(3_600))
            defer { session.tearDown() }
            try context.observe(4_000, inRoundsOf: 1_000) { _ in }
            try context.observe(1_000, inRoundsOf: 1_000) { _ in }
            #expect(observed.count == 5_000 && observed.shortOf == nil)
        }

        @Test("A rule's verdict, its CSV row and a child's line carry the trials the rounds ran")
        func theVerdictCarriesTheTrials() throws {
            let rule = try #require(ConformanceRules.rule(.s3))
            let result = ConformanceBackend.dispatchQueue.evaluate(rule)
            #expect(result.outcome.label == "passed", "\(result)")
            #expect(result.trials == SerialRules.causalRounds)
            #expect(result.outcome.detail.contains("observed: 0 of 10 000 cross-thread pairs"), "\(result)")
            #expect(ConformanceReport.csv([result]).contains(",observed,10000\r\n"))
            let line = IsolatedRun.line(for: result)
            #expect(IsolatedRun.result(from: line[...])?.trials == 10_000)
            // A forced rule ran no trials; a declared one did not run.
            let forced = ConformanceBackend.dispatchQueue.evaluate(try #require(ConformanceRules.rule(.s5)))
            #expect(forced.trials == nil, "\(forced)")
        }
    }
}
