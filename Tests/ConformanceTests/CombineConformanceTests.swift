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
                // OpenCombine's OperationQueue scheduler clears a repeating operation's action outside its lock while
                // the queue's thread calls it (Docs/Combine.md, "OperationQueue"): under ThreadSanitizer's timing, M1's
                // cancels of repeating work during ticks made that call jump into a freed closure (a SEGV that ended
                // the process). The plain run judges the cell; the TSan run leaves it, so as not to die of a peer's crash.
                if threadSanitizerIsActive && pair.rule.id == .m1
                    && pair.backend.id == ConformanceBackend.combineOperationQueue.id
                {
                    print("\(pair.rule.id) · \(pair.backend.name): not run under ThreadSanitizer (OpenCombine's race)")
                    return
                }
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
