import SchedulerConformance
import Testing

extension Conformance {
    /// Every rule says how far its pass can be trusted, and an observed pass says what it rules out.
    @Suite struct Evidence {
        @Test("Every rule is marked forced, observed or mixed; an observed part names its trials")
        func everyRuleIsMarked() {
            let all =
                ConformanceRules.all.map { ($0.id, $0.evidence) } + ClockRules.all.map { ($0.id, $0.evidence) }
                + ExecutorSubjectRules.all.map { ($0.id, $0.evidence) }
            for (id, evidence) in all {
                #expect(RuleEvidence.of(id) == evidence, "\(id)")
                switch evidence {
                case .forced: #expect(evidence.trials == nil && evidence.passNote.isEmpty, "\(id)")
                case .observed(let trials, let trial, let round), .mixed(_, let trials, let trial, let round):
                    #expect(trials >= 100 && !trial.isEmpty, "\(id): \(trials) \(trial)")
                    #expect(round.map { $0 > 0 } ?? true, "\(id): rounds of \(round ?? 0)")
                }
            }
            // The races users saw flip between runs are observed, say so, and run in rounds until one finds the defect.
            for id: RuleID in [.c2, .c3, .s2, .s3, .s4] {
                #expect(RuleEvidence.of(id)?.kind != "forced", "\(id)")
                #expect(RuleEvidence.of(id)?.round != nil, "\(id)")
            }
            for id: RuleID in [.t2, .v5, .k5, .k6, .s5, .t4] {
                #expect(RuleEvidence.of(id)?.kind != "observed", "\(id)")
            }
        }

        @Test("An observed pass rules out defects that show in more than about 1 in n/3 trials, at 95 %")
        func whatAPassRulesOut() {
            let evidence = RuleEvidence.observed(trials: 240_000, trial: "races")
            // (1 − 1/80 114)^240 000 ≈ 0.05: the rarest rate a pass excludes with 95 % probability.
            #expect(evidence.oneInAtLeast == 80_114)
            #expect(
                evidence.passNote
                    == "observed: 0 of 240 000 races went wrong; a defect that shows in more than 1 in 80 114 would have failed this with 95 % probability"
            )
            #expect(RuleEvidence.forced.passNote.isEmpty && RuleEvidence.forced.oneInAtLeast == nil)
            #expect(evidence.summary == "observed: 240 000 races")
        }

        /// A verdict describes what ran: a scheduler that loses one task fails T3 with that task named (its index
        /// and kind), and how many of the tasks ran.
        @Test("T3 names the task that never ran")
        func aLostTaskIsNamed() {
            let backend = ConformanceBackend(name: "TaskLosing", pendingWorkOnRelease: .dropped) {
                TaskLosingVirtualScheduler()
            }
            let result = backend.evaluate(ConformanceRules.rule(.t3)!)
            // The outer task is the first given; the lost 151st is task 149 of the 300, one "due in the past".
            #expect(result.outcome.isFailure, "\(result)")
            #expect(result.outcome.detail.contains("299 of 300 ran, never: 149 (due in the past)"), "\(result)")
        }
    }
}
