import Dispatch
import Foundation
import SchedulerKit

/// The one path from a rule and a subject to a verdict, for every family: settled without running where the subject
/// declares the rule or the rule's gate does not admit it (``RuleJudgement``); otherwise the check runs on a thread
/// of its own against its deadline (``RuleDeadline``) with its observed rounds (``ObservedTrials``), on a target made
/// fresh for it, and the subject's hang record shortens the deadlines of its later rules.
enum RuleRunner {
    static func judge(_ rule: ConformanceRule, on subject: some ConformanceSubject, deadline: Duration?) -> RuleResult {
        let started = ContinuousClock.now
        if let settled = subject.outcomeWithoutRunning(rule) {
            return RuleJudgement.result(rule.id, on: subject.name, settled, since: started)
        }
        let watch = CheckWatch(subject: rule.category)
        let deadline = deadline ?? rule.deadline
        let observed = ObservedTrials(deadline: RuleDeadline.scaled(deadline))
        let target = subject.checkTarget
        let outcome = RuleDeadline.run(rule.id, deadline: deadline, watch: watch, hangs: target.hangs) {
            RuleJudgement.outcome(evidence: rule.evidence, observed: observed) {
                try run(rule.check, on: target.factory, watch: watch, observed: observed)
            }
        }
        return RuleJudgement.result(
            rule.id, on: subject.name, outcome, since: started, trials: observed.count ?? rule.evidence.trials)
    }

    /// Makes the check's target and runs the check on it, on the calling thread (the check thread).
    private static func run(
        _ check: RuleCheck, on factory: CheckTarget.Factory, watch: CheckWatch, observed: ObservedTrials
    ) throws -> String {
        switch (check, factory) {
        case (.scheduler(let body), .scheduler(let backend)):
            let session = backend.session(.conformance)
            defer { session.close() }
            return try body(ConformanceContext(backend: backend, session: session, watch: watch, observed: observed))
        case (.clock(let body), .clock(let make)):
            let clock = make()
            return try awaiting { try await body(clock) }
        case (.executor(let body), .executor(let make)):
            // Torn down only when the check returns: an abandoned check may still be using the executor.
            let executor = {
                var made = make()
                made.another = make
                return made
            }()
            defer { executor.tearDown() }
            return try awaiting { try await body(executor) }
        case (.explorer(let body), .explorer(let make)):
            let explorer = make()
            return try awaiting { try await body(explorer) }
        case (.globalExecutor(let body), .globalExecutor(let subject)):
            return try body(try GlobalExecutorUnderTest.installing(subject))
        default:
            // The gate admits only subjects of the rule's kind, and a rule it does not admit never runs.
            throw RuleFailure("the rule's check is for another kind of subject")
        }
    }

    /// Runs an `async` check as a task and blocks the check thread (never one of the cooperative pool) until it ends.
    private static func awaiting(_ body: @escaping @Sendable () async throws -> String) throws -> String {
        let result = Locked<Result<String, any Error>?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Task {
            let outcome: Result<String, any Error>
            do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
            result.withLock { $0 = outcome }
            finished.signal()
        }
        finished.wait()
        return try result.withLock { $0! }.get()
    }
}
