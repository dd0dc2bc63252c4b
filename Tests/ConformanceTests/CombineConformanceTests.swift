#if Combine
    import SchedulerConformance
    import SchedulerConformanceCombine
    import SchedulerKit
    import Testing

    extension Conformance {
        /// Combine's four schedulers (OpenCombine's here) against every rule, in the serialized `Conformance` suite. A
        /// rule one of them fails by design is a known issue whose detail is printed; any other failure fails the suite.
        @Suite struct Combine {
            @Test(
                "Combine scheduler keeps the rule, declares it does not, or fails it by design",
                arguments: ConformanceCase.cases(ConformanceBackend.combine))
            func rule(_ pair: ConformanceCase) {
                pair.judge()
            }

            @Test(
                "Declarations and expected failures name rules that apply, with a reason",
                arguments: ConformanceBackend.combine.map(\.name))
            func declarationsAndExpectedFailures(_ name: String) throws {
                try expectMeaningfulDeclarations(of: #require(ConformanceBackend.combine.first { $0.name == name }))
            }
        }
    }
#endif
