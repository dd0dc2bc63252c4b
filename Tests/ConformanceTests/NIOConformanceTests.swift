#if NIO
    import SchedulerConformance
    import SchedulerConformanceNIO
    import SchedulerKit
    import Testing

    extension Conformance {
        /// The SwiftNIO adapters against every rule, one at a time with the built-in run (part of the serialized
        /// `Conformance` suite, so two stress runs never compete for the cores). A rule NIO fails by design is a known
        /// issue whose detail is printed; any other failure fails the suite.
        @Suite struct NIO {
            @Test(
                "NIO adapter keeps the rule, declares it does not, or fails it by design",
                arguments: ConformanceCase.cases(ConformanceBackend.nio))
            func rule(_ pair: ConformanceCase) {
                pair.judge()
            }

            @Test(
                "Declarations and expected failures name rules that would run, with a reason",
                arguments: ConformanceBackend.nio.map(\.name))
            func declarationsAndExpectedFailures(_ name: String) throws {
                let backend = try #require(ConformanceBackend.nio.first { $0.name == name })
                // T6 needs fixed-rate, the very promise NIO's fixed-delay repeating lacks: declared so the matrix says why.
                try expectMeaningfulDeclarations(
                    of: backend, lacking: backend.traits.contains(.repeating) ? .fixedRate : [])
            }

            /// What is not applicable where, so a trait change that silently drops rules shows up here.
            @Test("Not-applicable cells follow from traits", arguments: ConformanceBackend.nio.map(\.name))
            func notApplicable(_ name: String) throws {
                let backend = try #require(ConformanceBackend.nio.first { $0.name == name })
                let skipped = ConformanceRules.rules(for: .scheduler).filter {
                    backend.outcomeWithoutRunning($0) == .notApplicable
                }.map(
                    \.id)
                let expected: [String: [RuleID]] = [
                    "EventLoopScheduler": [
                        .k5, .k6, .r1, .v1, .v2, .v3, .v4, .v5, .v6, .v7, .v8, .v9, .l1, .l2, .l3,
                        .l4, .l6, .l7, .p1, .p2, .p3, .p4, .p5, .p6, .n3,
                    ],
                    "NIOThreadPoolScheduler": [
                        .c6, .k5, .k6, .r1, .t1, .t2, .t3, .t4, .t5, .t6, .t8, .v1, .v2, .v3, .v4, .v5,
                        .v6, .v7, .v8, .v9, .l4, .l7, .p1, .p2, .p3, .p4, .p5, .p6, .g2, .n1, .n2, .n3,
                    ],
                ]
                #expect(skipped == expected[name], "\(name): not applicable \(skipped)")
            }
        }
    }
#endif
