import Foundation
import SchedulerConformance
import Testing

extension Conformance {
    /// Rule ids are typed: the constants are exactly the kit's rules, text from outside is checked, and a literal that
    /// names no rule stops the program where it is written, with the ids there are.
    @Suite struct RuleIDs {
        @Test("RuleID.all is exactly the ids of the one registry, and each family's list is its part of it")
        func theConstantsAreTheRules() {
            #expect(Set(ConformanceRules.all.map(\.id)) == Set(RuleID.all))
            #expect(ConformanceRules.all.count == RuleID.all.count)
            #expect(ConformanceRules.rules(for: .clock).map(\.id) == ClockRules.all.map(\.id))
            #expect(ConformanceRules.rules(for: .executor).map(\.id) == ExecutorSubjectRules.all.map(\.id))
            #expect(ConformanceRules.rules(for: .globalExecutor).map(\.id) == GlobalExecutorRules.all.map(\.id))
            #expect(ConformanceRules.rules(for: .explorer).map(\.id) == ExplorerRules.all.map(\.id))
            #expect(
                Set(ConformanceRules.rules(for: .scheduler).map(\.id))
                    == Set(RuleID.all.filter { !["CL", "X", "GE", "EX"].contains($0.family) }))
        }

        @Test("Text becomes an id only if a rule has it")
        func textIsChecked() {
            // Through variables: `RuleID("C2")` with a literal is the literal itself (checked by the other test).
            let (c2, cl4, unknown, lowerCase, empty) = ("C2", "CL4", "C44", "c2", "")
            #expect(RuleID(c2) == .c2)
            #expect(RuleID(cl4) == .cl4)
            #expect(RuleID(unknown) == nil)
            #expect(RuleID(lowerCase) == nil)
            #expect(RuleID(empty) == nil)
            #expect(RuleID.c2 < RuleID.c6 && RuleID.v2 < RuleID.v9 && RuleID.s7 < RuleID.c1)
        }

        @Test("A literal that names no rule stops the program and says which ids there are")
        func anUnknownLiteralIsAnErrorWhereItIsWritten() async throws {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let declarations: [RuleID: String] = ["C44": "a typo for C4"]
                print(declarations.count)
            }
            let stderr = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
            #expect(stderr.contains("no rule is called \"C44\""), "\(stderr)")
            #expect(stderr.contains("C1–C6"), "\(stderr)")
        }

        @Test("An id goes through a child process and a CSV file as its text, and comes back only if it is a rule")
        func codableAsText() throws {
            let encoded = try JSONEncoder().encode([RuleID.c2, .x1])
            #expect(String(decoding: encoded, as: UTF8.self) == #"["C2","X1"]"#)
            #expect(try JSONDecoder().decode([RuleID].self, from: encoded) == [.c2, .x1])
            #expect(throws: DecodingError.self) {
                try JSONDecoder().decode([RuleID].self, from: Data(#"["C44"]"#.utf8))
            }
        }
    }
}
