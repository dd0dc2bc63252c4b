import Foundation
import SchedulerConformance
import Testing

extension Conformance {
    /// Rule ids are typed: the constants are exactly the kit's rules and text from outside is checked. (An id that
    /// names no rule cannot be written: there is no such constant, and a string is no id.)
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
            #expect(RuleID("C2") == .c2)
            #expect(RuleID("CL4") == .cl4)
            #expect(RuleID("C44") == nil)
            #expect(RuleID("c2") == nil)
            #expect(RuleID("") == nil)
            #expect(RuleID.c2 < RuleID.c6 && RuleID.v2 < RuleID.v9 && RuleID.s7 < RuleID.c1)
            #expect(RuleID.summary.hasPrefix("S1–S7, C1–C6, K1–K6"), "\(RuleID.summary)")
        }

        @Test("A family declares its ids: letters and number, the family's letters first")
        func idsAreDeclaredByTheirFamily() {
            #expect(RuleID.c2.family == RuleFamily.cancellation.letters && RuleID.c2.number == 2)
            #expect(RuleID.cl4.rawValue == "CL4")
            #expect(ConformanceRules.all.allSatisfy { $0.id.family == $0.family.letters })
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
