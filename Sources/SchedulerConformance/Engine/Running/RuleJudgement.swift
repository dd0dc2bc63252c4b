import Foundation

/// What happens around every check, of every family (scheduler rules on a ``ConformanceBackend``, clock and executor
/// rules on their subjects), in one place: how a rule that does not run is settled, how a check's return or throw
/// becomes an outcome, and how long it took. The families differ only in how a check is run against its deadline
/// (a thread of its own for a blocking check, a task for an `async` one: ``RuleDeadline``).
enum RuleJudgement {
    /// A declaration first, also where the rule would not apply (a declaration is never hidden), then n/a; nil: the
    /// check runs.
    static func settled(declaration: String?, applies: Bool) -> RuleOutcome? {
        if let reason = declaration { return .declared(reason: reason) }
        return applies ? nil : .notApplicable
    }

    /// Passed with the check's note and what the rule's evidence adds, or failed with what the check threw. Where the
    /// check ran its trials in rounds (``ObservedTrials``), the note carries the trials that ran, not the target, and
    /// says when the rounds stopped short of it.
    static func outcome(
        evidence: RuleEvidence, observed: ObservedTrials, _ check: () throws -> String
    ) -> RuleOutcome {
        do {
            let note = try check()
            return .passed(
                note: evidence.joined(to: note, trials: observed.count, shortOf: observed.shortOf, in: observed.budget))
        } catch {
            return failure(error)
        }
    }

    /// As above, for an `async` check (the clock and executor rules, which state fixed trials).
    static func outcome(evidence: RuleEvidence, _ check: () async throws -> String) async -> RuleOutcome {
        do {
            return .passed(note: evidence.joined(to: try await check()))
        } catch {
            return failure(error)
        }
    }

    private static func failure(_ error: any Error) -> RuleOutcome {
        if let failure = error as? RuleFailure { return .failed(detail: failure.detail) }
        if error is CheckNotApplicable { return .notApplicable }
        return .failed(detail: "check threw \(error)")
    }

    /// The result of `ruleID` on `subject`, timed from `started`.
    /// `trials`: the observed trials that ran (nil for a forced rule); kept only for a verdict that ran the check.
    static func result(
        _ ruleID: RuleID, on subject: String, _ outcome: RuleOutcome, since started: ContinuousClock.Instant,
        trials: Int? = nil
    ) -> RuleResult {
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return RuleResult(
            ruleID: ruleID, backendName: subject, outcome: outcome, seconds: seconds,
            trials: outcome.ranTheCheck ? trials : nil)
    }
}

/// Thrown by a check that finds the subject offers no way to do what the rule needs, where its kind cannot say so
/// before the check (a virtual clock's driver without ``VirtualClockDriver/runUntilIdle``): n/a, never failed.
struct CheckNotApplicable: Error {}
