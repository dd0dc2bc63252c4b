import SchedulerConformance
import SchedulerKit
import Testing

#if NIO
    import SchedulerConformanceNIO
#endif

extension ExecutorSubject {
    /// The built-in executors and, with the NIO trait, SwiftNIO's.
    static var judgedHere: [ExecutorSubject] {
        #if NIO
            builtIn + nio
        #else
            builtIn
        #endif
    }
}

/// One executor rule on one executor subject.
struct ExecutorCase: Sendable, CustomTestStringConvertible {
    let subject: ExecutorSubject
    let rule: ExecutorSubjectRule
    var testDescription: String { "\(rule.id) · \(subject.name)" }

    static func cases(_ subjects: [ExecutorSubject]) -> [ExecutorCase] {
        subjects.flatMap { subject in
            let kind = subject.kind
            return ExecutorSubjectRules.all.filter { $0.applies(to: kind) }.map {
                ExecutorCase(subject: subject, rule: $0)
            }
        }
    }
}

/// An executor with one defect, the rules it must fail, and those it fails only when a race goes that way (the others
/// that apply it must pass).
struct ExecutorControl: Sendable, CustomTestStringConvertible {
    let subject: ExecutorSubject
    let mustFail: Set<RuleID>
    var mayFail: Set<RuleID> = []
    /// Rules not run on this control: its defect makes the runtime itself misbehave there (a job run inside the
    /// enqueue that a task's own switch made resumes the task while it is still on the stack: the process crashed in
    /// one CI run), so the check cannot report, only crash.
    var skip: Set<RuleID> = []
    var testDescription: String { subject.name }

    static func queue(
        _ name: String, _ defect: QueueExecutor.Defect, mustFail: Set<RuleID>, mayFail: Set<RuleID> = [],
        skip: Set<RuleID> = []
    ) -> ExecutorControl {
        ExecutorControl(
            subject: ExecutorSubject(name: "Control: \(name)") { ExecutorUnderTest(serial: QueueExecutor(defect)) },
            mustFail: mustFail, mayFail: mayFail, skip: skip)
    }

    /// A control as a task's preference, telling X5 which threads run its jobs.
    static func task(
        _ name: String, _ defect: QueueExecutor.Defect, mustFail: Set<RuleID>, skip: Set<RuleID> = []
    ) -> ExecutorControl {
        ExecutorControl(
            subject: ExecutorSubject(name: "Control: \(name)") {
                let executor = QueueExecutor(defect)
                return ExecutorUnderTest(task: executor, isRunningJob: { executor.isRunningJob })
            }, mustFail: mustFail, skip: skip)
    }

    static let all: [ExecutorControl] = [
        queue("correct queue executor", .none, mustFail: []),
        // Tasks started in order on a concurrent queue overtake one another now and then (X2).
        queue("jobs on a concurrent queue", .concurrent, mustFail: [.x1, .x6], mayFail: [.x2]),
        queue("jobs inside enqueue", .inline, mustFail: [.x3], skip: [.x6]),
        task("task jobs inside enqueue", .inline, mustFail: [.x3], skip: [.x5]),
        task("correct queue executor as a task preference", .none, mustFail: []),
        task("task jobs handed on to the global executor", .forwardsToGlobal, mustFail: [.x5]),
        queue("claims isolation everywhere", .claimsIsolationEverywhere, mustFail: [.x4]),
        queue("tells isolation by its queue's label", .comparesLabels, mustFail: [.x4]),
        ExecutorControl(
            subject: ExecutorSubject(name: "Control: jobs on a stack") {
                let executor = StackExecutor()
                return ExecutorUnderTest(serial: executor, tearDown: executor.stop)
            }, mustFail: [.x2]),
    ]

    static var cases: [ExecutorControlCase] {
        all.flatMap { control in
            let kind = control.subject.kind
            return ExecutorSubjectRules.all.filter {
                $0.applies(to: kind) && !control.skip.contains($0.id) && controlRulesListed($0.id)
            }.map {
                ExecutorControlCase(control: control, rule: $0)
            }
        }
    }
}

struct ExecutorControlCase: Sendable, CustomTestStringConvertible {
    let control: ExecutorControl
    let rule: ExecutorSubjectRule
    var testDescription: String {
        let expectation =
            control.mustFail.contains(rule.id)
            ? "must fail" : control.mayFail.contains(rule.id) ? "may fail" : "must not fail"
        return "\(rule.id) · \(control.subject.name) (\(expectation))"
    }
}

extension Conformance {
    @Suite struct Executors {
        @Test(
            "Built-in executor keeps the rule, or declares it does not",
            arguments: ExecutorCase.cases(ExecutorSubject.judgedHere))
        func rule(_ pair: ExecutorCase) async {
            let result = await pair.subject.evaluate(pair.rule)
            #expect(!result.outcome.isFailure, "\(result)")
        }

        @Test("A broken executor fails exactly the rules it breaks", arguments: ExecutorControl.cases)
        func control(_ pair: ExecutorControlCase) async {
            let subject = pair.control.subject
            if threadSanitizerIsActive {
                // The control executors are test code driven by the runtime from threads it reached through hand-offs
                // ThreadSanitizer does not always see: in one CI run it reported the inline control's enqueue racing
                // with the control's own initialisation. They are judged in the plain run; the built-in executors'
                // suite runs under ThreadSanitizer as usual.
                withKnownIssue("\(pair.rule.id) · \(subject.name) is not run under ThreadSanitizer") {
                    Issue.record("skipped: a broken executor of the tests, judged in the plain run")
                }
                return
            }
            await judgeControl(
                rule: pair.rule.id, subject: subject.name, mustFail: pair.control.mustFail.contains(pair.rule.id),
                mayFail: pair.control.mayFail.contains(pair.rule.id)
            ) { await subject.evaluate(pair.rule).outcome }
        }

        @Test("Every executor rule has a negative control, and rule ids are unique")
        func coverage() {
            let ids = ExecutorSubjectRules.all.map(\.id)
            #expect(Set(ids).count == ids.count)
            let failed = Set(ExecutorControl.all.flatMap(\.mustFail))
            for id in ids { #expect(failed.contains(id), "\(id) has no negative control") }
        }
    }
}
