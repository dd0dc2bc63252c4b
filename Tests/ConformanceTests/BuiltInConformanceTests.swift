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
            #expect(executorRules.map(\.id) == [.e1, .e2, .e3, .e4, .e5])
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
            let families: [RuleFamily] = [
                .serial, .cancellation, .currentScheduler, .recursion, .time, .virtualTime, .lifecycle, .executor,
                .parallelism, .progress, .leftBehind, .model, .clock, .executorSubject, .globalExecutor, .explorer,
            ]
            for family in families {
                #expect(ConformanceRules.all.contains { $0.family == family }, "no rule in family \(family)")
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
                    .s5, .s6, .s7, .c6, .k5, .k6, .t1, .t2, .t3, .t4, .t5, .t6, .t8, .v1, .v2, .v3,
                    .v4,
                    .v5, .v6, .v7, .v8, .v9, .l1, .l2, .l3, .l4, .l6, .l7, .e1, .e2, .e3, .e4, .e5, .p1,
                    .p2,
                    .p3, .p4, .p5, .p6, .g1, .g2, .n1, .n2, .n3,
                ],
                "SubscriptionScheduler": [
                    .s1, .s2, .s3, .s4, .s5, .s6, .s7, .c1, .c4, .c6, .k1, .k2, .k3, .k4, .k6, .r1,
                    .r4, .t1, .t2, .t3, .t4, .t5, .t6, .t8, .v1, .v2, .v3, .v4, .v5, .v6, .v7, .v8,
                    .v9,
                    .l1, .l2, .l3, .l4, .l6, .l7, .e1, .e2, .e3, .e4, .e5, .p1, .p2, .p3, .p4, .p5, .p6,
                    .g1, .g2, .n1, .n2, .n3,
                ],
                "DispatchQueueScheduler": [
                    .k5, .k6, .r1, .v1, .v2, .v3, .v4, .v5, .v6, .v7, .v8, .v9, .l1, .l2, .l3, .l4,
                    .l6, .l7, .p1, .p2, .p3, .p4, .p5, .p6, .n3,
                ],
                "ThreadPoolScheduler": [
                    .k5, .k6, .r1, .v1, .v2, .v3, .v4, .v5, .v6, .v7, .v8, .v9, .p1, .p2, .p3, .p4,
                    .p5, .p6, .n3,
                ],
                "OperationQueueScheduler": [
                    .k5, .k6, .r1, .v1, .v2, .v3, .v4, .v5, .v6, .v7, .v8, .v9, .l1, .l2, .l3, .l4,
                    .l6, .l7, .p1, .p2, .p3, .p4, .p5, .p6, .n3,
                ],
                "TestScheduler": [
                    .s5, .s6, .s7, .k5, .k6, .r1, .t5, .t6, .l1, .l2, .l3, .l4, .l6, .l7, .p1, .p2, .p3,
                    .p4, .p5, .p6, .g1, .g2, .n1, .n2,
                ],
                "MainThreadScheduler": [
                    .s5, .s6, .s7, .c6, .k5, .r1, .t1, .t2, .t3, .t4, .t5, .t6, .t8, .v1, .v2, .v3,
                    .v4,
                    .v5, .v6, .v7, .v8, .v9, .l1, .l2, .l3, .l4, .l6, .l7, .e1, .e2, .e3, .e4, .e5, .p1,
                    .p2,
                    .p3, .p4, .p5, .p6, .g1, .g2, .n1, .n2, .n3,
                ],
                "ConcurrentDispatchQueueScheduler": [
                    .s1, .s2, .s3, .s4, .s6, .s7, .c1, .c4, .k5, .k6, .r1, .r4, .t3, .t4, .v1, .v2,
                    .v3, .v4, .v5, .v6, .v7, .v8, .v9, .l1, .l2, .l3, .l4, .l6, .l7, .e1, .e2, .e3, .e4,
                    .e5, .n2, .n3,
                ],
                "ThreadPoolConcurrentScheduler": [
                    .s1, .s2, .s3, .s4, .s6, .s7, .c1, .c4, .k5, .k6, .r1, .r4, .t3, .t4, .v1, .v2,
                    .v3, .v4, .v5, .v6, .v7, .v8, .v9, .e1, .e2, .e3, .e4, .e5, .n2, .n3,
                ],
                "OperationQueueScheduler (width 2)": [
                    .s1, .s2, .s3, .s4, .s6, .s7, .c1, .c4, .k5, .k6, .r1, .r4, .t3, .t4, .v1, .v2,
                    .v3, .v4, .v5, .v6, .v7, .v8, .v9, .l1, .l2, .l3, .l4, .l6, .l7, .e1, .e2, .e3, .e4,
                    .e5, .n2, .n3,
                ],
                "OperationQueueScheduler (caller's queue)": [
                    .k5, .k6, .r1, .v1, .v2, .v3, .v4, .v5, .v6, .v7, .v8, .v9, .l1, .l2, .l3, .l4,
                    .l6, .l7, .p1, .p2, .p3, .p4, .p5, .p6, .n3,
                ],
            ]
            #expect(skipped == expected[name], "\(name): not applicable \(skipped)")
        }
    }
}
