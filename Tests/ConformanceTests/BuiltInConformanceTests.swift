import SchedulerConformance
import SchedulerKit
import Testing

extension Conformance {
    /// Every SchedulerKit scheduler against every rule that applies to it; declared rules appear as their own cases.
    @Suite struct BuiltIn {
        @Test(
            "Built-in backend keeps the rule, or declares it does not",
            arguments: ConformanceCase.cases(ConformanceBackend.builtIn))
        func rule(_ pair: ConformanceCase) {
            pair.judge()
        }
    }

    @Suite struct Matrix {
        @Test("Every declaration names a rule the backend would otherwise be checked against")
        func declarationsAreReal() {
            for backend in ConformanceBackend.builtIn {
                for (id, reason) in backend.declarations {
                    let rule = ConformanceRules.rule(id)
                    #expect(rule != nil, "\(backend.name) declares unknown rule \(id)")
                    #expect(
                        rule.map { $0.applies(to: backend.traits) } ?? false,
                        "\(backend.name) declares \(id), which does not apply to it anyway")
                    #expect(!reason.isEmpty)
                }
            }
        }

        /// A rule applies only where what its check needs can exist: the E rules need a scheduler that can back an
        /// executor (``SchedulerExecutor/accepts(_:)``), so a serial, current-setting scheduler that runs work inline
        /// when already on its thread is n/a there, not failed, and needs no declaration.
        @Test("The executor rules apply exactly where an executor can be built")
        func executorRulesFollowTheExecutorsOwnTest() {
            let executorRules = ConformanceRules.all.filter { $0.family == .executor && $0.id != .e6 }
            #expect(executorRules.map(\.id) == ["E1", "E2", "E3", "E4", "E5"])
            for bits in 0..<(1 << 13) {
                let traits = SchedulerTraits(rawValue: UInt32(bits))
                // E6 judges `accepts` itself, so it applies to every scheduler.
                #expect(ConformanceRules.rule(.e6)?.applies(to: traits) == true, "E6 on [\(traits)]")
                for rule in executorRules {
                    #expect(
                        rule.applies(to: traits)
                            == (SchedulerExecutor.accepts(traits) && !traits.contains(.trampoline)),
                        "\(rule.id) on [\(traits)]")
                }
            }
            for rule in executorRules {
                #expect(ConformanceBackend.mainThread.evaluate(rule).outcome == .notApplicable, "\(rule.id)")
            }
        }

        @Test("Rule ids are unique and every family has rules")
        func ruleIDs() {
            let ids = ConformanceRules.all.map(\.id)
            #expect(Set(ids).count == ids.count)
            for family in RuleFamily.allCases {
                #expect(ConformanceRules.all.contains { $0.family == family }, "no rule in family \(family.rawValue)")
            }
        }

        /// What is not applicable where, so a trait change that silently drops rules shows up here.
        @Test("Not-applicable cells follow from traits", arguments: ConformanceBackend.builtIn.map(\.name))
        func notApplicable(_ name: String) throws {
            let backend = try #require(ConformanceBackend.builtIn.first { $0.name == name })
            let skipped = ConformanceRules.rules(for: .scheduler).filter {
                backend.outcomeWithoutRunning($0) == .notApplicable
            }.map(\.id)
            let expected: [String: [RuleID]] = [
                "ImmediateScheduler": [
                    "S5", "S6", "S7", "C6", "K5", "K6", "T1", "T2", "T3", "T4", "T5", "T6", "T8", "V1", "V2", "V3",
                    "V4",
                    "V5", "V6", "V7", "V8", "V9", "L1", "L2", "L3", "L4", "L6", "E1", "E2", "E3", "E4", "E5", "P1",
                    "P2",
                    "P3", "P4", "P5", "P6", "G1", "G2", "N1", "N2", "N3",
                ],
                "SubscriptionScheduler": [
                    "S1", "S2", "S3", "S4", "S5", "S6", "S7", "C1", "C4", "C6", "K1", "K2", "K3", "K4", "K6", "R1",
                    "R4", "T1", "T2", "T3", "T4", "T5", "T6", "T8", "V1", "V2", "V3", "V4", "V5", "V6", "V7", "V8",
                    "V9",
                    "L1", "L2", "L3", "L4", "L6", "E1", "E2", "E3", "E4", "E5", "P1", "P2", "P3", "P4", "P5", "P6",
                    "G1", "G2", "N1", "N2", "N3",
                ],
                "DispatchQueueScheduler": [
                    "K5", "K6", "R1", "V1", "V2", "V3", "V4", "V5", "V6", "V7", "V8", "V9", "L1", "L2", "L3", "L4",
                    "L6", "P1", "P2", "P3", "P4", "P5", "P6", "N3",
                ],
                "ThreadPoolScheduler": [
                    "K5", "K6", "R1", "V1", "V2", "V3", "V4", "V5", "V6", "V7", "V8", "V9", "P1", "P2", "P3", "P4",
                    "P5", "P6", "N3",
                ],
                "OperationQueueScheduler": [
                    "K5", "K6", "R1", "V1", "V2", "V3", "V4", "V5", "V6", "V7", "V8", "V9", "L1", "L2", "L3", "L4",
                    "L6", "P1", "P2", "P3", "P4", "P5", "P6", "N3",
                ],
                "TestScheduler": [
                    "S5", "S6", "S7", "K5", "K6", "R1", "T5", "T6", "L1", "L2", "L3", "L4", "L6", "P1", "P2", "P3",
                    "P4", "P5", "P6", "G1", "G2", "N1", "N2",
                ],
                "MainThreadScheduler": [
                    "S5", "S6", "S7", "C6", "K5", "R1", "T1", "T2", "T3", "T4", "T5", "T6", "T8", "V1", "V2", "V3",
                    "V4",
                    "V5", "V6", "V7", "V8", "V9", "L1", "L2", "L3", "L4", "L6", "E1", "E2", "E3", "E4", "E5", "P1",
                    "P2",
                    "P3", "P4", "P5", "P6", "G1", "G2", "N1", "N2", "N3",
                ],
                "ConcurrentDispatchQueueScheduler": [
                    "S1", "S2", "S3", "S4", "S6", "S7", "C1", "C4", "K5", "K6", "R1", "R4", "T3", "T4", "V1", "V2",
                    "V3", "V4", "V5", "V6", "V7", "V8", "V9", "L1", "L2", "L3", "L4", "L6", "E1", "E2", "E3", "E4",
                    "E5", "N2", "N3",
                ],
                "ThreadPoolConcurrentScheduler": [
                    "S1", "S2", "S3", "S4", "S6", "S7", "C1", "C4", "K5", "K6", "R1", "R4", "T3", "T4", "V1", "V2",
                    "V3", "V4", "V5", "V6", "V7", "V8", "V9", "E1", "E2", "E3", "E4", "E5", "N2", "N3",
                ],
                "OperationQueueScheduler (width 2)": [
                    "S1", "S2", "S3", "S4", "S6", "S7", "C1", "C4", "K5", "K6", "R1", "R4", "T3", "T4", "V1", "V2",
                    "V3", "V4", "V5", "V6", "V7", "V8", "V9", "L1", "L2", "L3", "L4", "L6", "E1", "E2", "E3", "E4",
                    "E5", "N2", "N3",
                ],
                "OperationQueueScheduler (caller's queue)": [
                    "K5", "K6", "R1", "V1", "V2", "V3", "V4", "V5", "V6", "V7", "V8", "V9", "L1", "L2", "L3", "L4",
                    "L6", "P1", "P2", "P3", "P4", "P5", "P6", "N3",
                ],
            ]
            #expect(skipped == expected[name], "\(name): not applicable \(skipped)")
        }
    }
}
