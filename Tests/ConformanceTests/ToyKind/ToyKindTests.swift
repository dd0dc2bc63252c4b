import Foundation
import SchedulerConformance
import SchedulerKit
import Testing

// A kind of subject the kit has never heard of, added from outside it: its subject type, its family, its ids, its
// rules and its gate are all here, and nothing in `Sources/SchedulerConformance` names it. The engine judges it,
// and the report gives it a matrix of its own.

/// What a queue of integers offers, and whether it claims to keep order.
struct IntQueueUnderTest: Sendable {
    let push: @Sendable (Int) -> Void
    let popAll: @Sendable () -> [Int]
}

/// The toy kind: integer queues, which claim FIFO or not.
struct IntQueueSubject: ConformanceSubject {
    struct Claims: Sendable { let fifo: Bool }

    static let kind = SubjectKind(
        name: "integer queue", plural: "integer queues", noun: "queue", inside: "a push or a pop",
        matrixTitle: "Matrix: integer queues", matrixIntro: "A kind added by a test, outside the kit.",
        rerun: "queue.judge(RULE)")

    let name: String
    var summary: String { name }
    let declarations: [RuleID: String]
    var expectedFailures: [RuleID: String] { [:] }
    let claims: Claims
    let hangs = HangRecord()
    let make: @Sendable () -> IntQueueUnderTest

    func withFreshTarget(_ progress: CheckProgress, _ check: (IntQueueUnderTest) throws -> String) throws -> String {
        try check(make())
    }
}

extension RuleFamily {
    static let intQueue = RuleFamily("IQ", title: "Integer queues (a kind of subject added by a test)")
}

extension RuleID {
    static let iq1 = RuleID(newRuleOf: .intQueue, number: 1)
    static let iq2 = RuleID(newRuleOf: .intQueue, number: 2)
}

enum IntQueueRules {
    static let nothingLost = ConformanceRule(
        id: .iq1, family: .intQueue, statement: "Every value pushed is popped once.", why: "A queue holds.",
        catches: "A queue that drops a value.", about: IntQueueSubject.self, gate: .every(IntQueueSubject.kind)
    ) { queue in
        for value in 0..<100 { queue.push(value) }
        let popped = queue.popAll()
        guard popped.sorted() == Array(0..<100) else { throw RuleFailure("popped \(popped.count) of 100") }
        return ""
    }

    static let fifo = ConformanceRule(
        id: .iq2, family: .intQueue, statement: "Values come out in the order they went in.", why: "FIFO is promised.",
        catches: "A stack posing as a queue.", about: IntQueueSubject.self,
        gate: RuleGate("FIFO queues") { $0.fifo }
    ) { queue in
        for value in 0..<10 { queue.push(value) }
        let popped = queue.popAll()
        guard popped == Array(0..<10) else { throw RuleFailure("popped \(popped)") }
        return ""
    }

    static let all = [nothingLost, fifo]
}

/// A queue over an array: `reversed` pops newest first (a stack), `dropsLast` loses the last value.
func intQueue(name: String, fifo: Bool = true, reversed: Bool = false, dropsLast: Bool = false) -> IntQueueSubject {
    IntQueueSubject(name: name, declarations: [:], claims: .init(fifo: fifo)) {
        let values = Locked<[Int]>([])
        return IntQueueUnderTest(
            push: { value in values.withLock { $0.append(value) } },
            popAll: {
                values.withLock { values in
                    let out = reversed ? Array(values.reversed()) : values
                    return dropsLast ? Array(out.dropLast()) : out
                }
            })
    }
}

extension Conformance {
    @Suite struct AKindFromOutside {
        @Test("A kind of subject added outside the kit is judged by the one engine: passed, failed, n/a, declared")
        func judgedByTheEngine() {
            let good = intQueue(name: "ArrayQueue")
            #expect(IntQueueRules.all.map { good.judge($0).outcome.label } == ["passed", "passed"])
            let stack = intQueue(name: "Stack", reversed: true)
            #expect(stack.judge(IntQueueRules.fifo).outcome.isFailure)
            let unordered = intQueue(name: "Bag", fifo: false, reversed: true)
            #expect(unordered.judge(IntQueueRules.fifo).outcome == .notApplicable)
            let leaky = IntQueueSubject(
                name: "Leaky", declarations: [.iq1: "drops the last value"], claims: .init(fifo: true)
            ) { intQueue(name: "", dropsLast: true).make() }
            #expect(leaky.judge(IntQueueRules.nothingLost).outcome == .declared(reason: "drops the last value"))
            // A rule of another kind is n/a on it, and its rules are n/a on another kind.
            #expect(good.judge(ConformanceRules.rule(.c1)!).outcome == .notApplicable)
            #expect(ConformanceBackend.immediate.judge(IntQueueRules.fifo).outcome == .notApplicable)
        }

        @Test("The report gives the new kind a matrix of its own, under its own words")
        func reportedInItsOwnMatrix() {
            let subjects: [any ConformanceSubject] = [
                intQueue(name: "ArrayQueue"), intQueue(name: "Stack", reversed: true),
            ]
            let results = ConformanceReport.run(rules: IntQueueRules.all, subjects: subjects)
            let page = ConformanceReport.markdown(
                results, rules: IntQueueRules.all, subjects: subjects,
                provenance: ReportProvenance(command: "test", commit: "none", machine: "here"))
            #expect(page.contains("## Matrix: integer queues"))
            #expect(page.contains("### IQ: Integer queues (a kind of subject added by a test)"))
            #expect(page.contains("| IQ2 | pass | **FAIL** |"), "\(page)")
        }
    }
}
