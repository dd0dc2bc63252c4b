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
                        "K5", "K6", "R1", "V1", "V2", "V3", "V4", "V5", "V6", "V7", "V8", "V9", "L1", "L2", "L3",
                        "L4", "L6", "P1", "P2", "P3", "P4", "P5", "P6", "N3",
                    ],
                    "NIOThreadPoolScheduler": [
                        "C6", "K5", "K6", "R1", "T1", "T2", "T3", "T4", "T5", "T6", "T8", "V1", "V2", "V3", "V4", "V5",
                        "V6", "V7", "V8", "V9", "L4", "P1", "P2", "P3", "P4", "P5", "P6", "G2", "N1", "N2", "N3",
                    ],
                ]
                #expect(skipped == expected[name], "\(name): not applicable \(skipped)")
            }
        }
    }
#endif
