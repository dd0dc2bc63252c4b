import Dispatch
import Foundation
import SchedulerKit

/// The one path from a rule and a subject to a verdict, for every kind: settled without running where the subject
/// declares the rule or the rule's gate does not admit it (``RuleJudgement``); otherwise the check runs on a thread
/// of its own against its deadline (``RuleDeadline``) with its observed rounds (``ObservedTrials``), on a target the
/// subject makes fresh for it, and the subject's hang record shortens the deadlines of its later rules.
enum RuleRunner {
    static func judge(_ rule: ConformanceRule, on subject: some ConformanceSubject, deadline: Duration?) -> RuleResult {
        let started = ContinuousClock.now
        if let settled = subject.outcomeWithoutRunning(rule) {
            return RuleJudgement.result(rule.id, on: subject.name, settled, since: started)
        }
        let watch = CheckWatch(subject: subject.kind)
        let deadline = deadline ?? rule.deadline
        let observed = ObservedTrials(deadline: RuleDeadline.scaled(deadline))
        let progress = CheckProgress(watch: watch, observed: observed)
        let outcome = RuleDeadline.run(rule.id, deadline: deadline, watch: watch, hangs: subject.hangs) {
            RuleJudgement.outcome(evidence: rule.evidence, observed: observed) {
                try rule.run(on: subject, progress)
            }
        }
        return RuleJudgement.result(
            rule.id, on: subject.name, outcome, since: started, trials: observed.count ?? rule.evidence.trials)
    }

    /// Runs an `async` check as a task and blocks the check thread (never one of the cooperative pool) until it
    /// ends: how the kinds whose checks are `async` (clocks, executors, explorers) run them on their targets.
    static func awaiting(_ body: @escaping @Sendable () async throws -> String) throws -> String {
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
