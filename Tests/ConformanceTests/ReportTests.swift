import Foundation
import SchedulerConformance
import SchedulerKit
import Testing

extension Conformance {
    @Suite struct Report {
        static let results = [
            RuleResult(
                ruleID: .c2, backendName: "Quoting", outcome: .failed(detail: "said \"yes\", then ran\r\nagain"),
                seconds: 1.5),
            RuleResult(ruleID: .s1, backendName: "Plain", outcome: .passed(note: ""), seconds: 0.25),
            RuleResult(
                ruleID: .t6, backendName: "Plain", outcome: .declared(reason: "fixed delay | not rate"), seconds: 0),
        ]

        @Test("CSV follows RFC 4180: CRLF rows, quoted fields with commas, quotes or line breaks")
        func csvQuoting() {
            let csv = ConformanceReport.csv(Self.results)
            // The observed trials follow SCHEDULERKIT_CONFORMANCE_SCALE (a tenth under ThreadSanitizer).
            let (c2, s1) = (RuleEvidence.of(.c2)?.trials ?? 0, RuleEvidence.of(.s1)?.trials ?? 0)
            let expected =
                "rule,backend,outcome,detail,seconds,evidence,trials\r\n"
                + "C2,Quoting,failed,\"said \"\"yes\"\", then ran\r\nagain\",1.500,mixed,\(c2)\r\n"
                + "S1,Plain,passed,,0.250,mixed,\(s1)\r\n"
                + "T6,Plain,declared,fixed delay | not rate,0.000,forced,\r\n"
            #expect(csv == expected)
        }

        @Test("Markdown lists every rule, the matrix, and says which command and commit made it")
        func markdown() {
            let provenance = ReportProvenance(
                command: "swift run -c release bench conformance", commit: "abc1234", machine: "test host")
            let text = ConformanceReport.markdown(Self.results, provenance: provenance)
            #expect(text.contains("`swift run -c release bench conformance` at commit `abc1234` on test host"))
            for rule in ConformanceRules.all { #expect(text.contains("- **\(rule.id)** \(rule.statement)")) }
            #expect(text.contains("| Rule | " + ConformanceBackend.builtIn.map(\.name).joined(separator: " | ") + " |"))
            #expect(text.contains("fixed delay \\| not rate"), "a pipe in a detail must not split the table")
        }

        @Test("An expected failure says so whether it failed this run or passed (pass†), with its reason")
        func expectedFailures() {
            let backend = ConformanceBackend(
                name: "Racy", traits: [.serial], expectedFailures: [.t3: "a timer overtakes", .t4: "ties reorder"]
            ) { ConformanceSession(makeScheduler: { Schedulers.immediate }) }
            let results = [
                RuleResult(ruleID: .t3, backendName: "Racy", outcome: .passed(note: ""), seconds: 0),
                RuleResult(ruleID: .t4, backendName: "Racy", outcome: .failed(detail: "3 of 999"), seconds: 0),
            ]
            let text = ConformanceReport.markdown(
                results, rules: ConformanceRules.all.filter { [.t3, .t4].contains($0.id) }, subjects: [backend],
                provenance: ReportProvenance(command: "test", commit: "abc1234", machine: "test host"))
            #expect(text.contains("| T3 | pass† |"))
            #expect(text.contains("| T4 | **FAIL** |"))
            #expect(text.contains("- T3 · Racy: passed in this run, but can fail by design (a timer overtakes)\n"))
            #expect(text.contains("- T4 · Racy: failed (by design: ties reorder): 3 of 999"))
        }

        @Test("Writing leaves exactly the two reports, no temporary files, and replaces old ones whole")
        func atomicWrite() throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "conformance-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let provenance = ReportProvenance(command: "test", commit: "abc1234", machine: "test host")
            try ConformanceReport.write(Self.results, provenance: provenance, to: directory)
            try ConformanceReport.write(Array(Self.results.prefix(1)), provenance: provenance, to: directory)
            let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            #expect(files == ["CONFORMANCE.md", "conformance.csv"])
            let csv = try String(contentsOf: directory.appendingPathComponent("conformance.csv"), encoding: .utf8)
            #expect(csv == ConformanceReport.csv(Array(Self.results.prefix(1))))
        }

        @Test("A failure of any family prints its rule's statement and the call that runs it alone")
        func failureMessagesNameTheirRule() {
            let cases: [(id: RuleID, statement: String, registry: String)] = [
                (.c2, ConformanceRules.rule(.c2)!.statement, "backend.evaluate(ConformanceRules.rule(.c2)!)"),
                (.cl1, ConformanceRules.rule(.cl1)!.statement, "await subject.evaluate(ConformanceRules.rule(.cl1)!)"),
                (.x1, ConformanceRules.rule(.x1)!.statement, "await subject.evaluate(ConformanceRules.rule(.x1)!)"),
            ]
            for (id, statement, rerun) in cases {
                let message = RuleResult(
                    ruleID: id, backendName: "Subject", outcome: .failed(detail: "broke it"), seconds: 0
                ).failureMessage
                #expect(message.contains("The rule: \(statement)"), "\(id): \(message)")
                #expect(message.contains(rerun), "\(id): \(message)")
                #expect(!message.contains("(no rule of this id"), "\(id)")
            }
        }
    }
}
