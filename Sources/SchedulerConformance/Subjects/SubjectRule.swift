import SchedulerKit

/// One numbered promise of a subject that is not a scheduler (a clock, an executor), with the check that tests it
/// through the subject's public Swift API only.
///
/// Such rules form families of their own (CL for clocks, X for executors): they run on their own subjects, not on
/// ``ConformanceBackend``s, and select by the subject's kinds instead of scheduler traits. Their checks are `async`,
/// since what they judge is Swift concurrency's.
public struct SubjectRule<UnderTest: Sendable, Kind>: Sendable, Identifiable, CustomStringConvertible
where Kind: Hashable & Sendable & CaseIterable & RawRepresentable, Kind.RawValue == String {
    public let id: RuleID
    /// Whether a pass is forced or observed, and over how many trials (``RuleEvidence``).
    public let evidence: RuleEvidence
    /// One sentence: what a conforming subject guarantees.
    public let statement: String
    /// Why users need the promise.
    public let why: String
    /// What breaking it looked like in the peers (their reported bugs, by number) or what it would look like here.
    public let catches: String
    /// The rule applies to a subject of any of these kinds.
    public let kinds: Set<Kind>
    /// Throws ``RuleFailure`` when the promise is broken; returns a note for the report (measurements), or "".
    let check: @Sendable (UnderTest) async throws -> String

    init(
        id: RuleID, evidence: RuleEvidence = .forced, statement: String, why: String, catches: String,
        kinds: Set<Kind> = Set(Kind.allCases), check: @escaping @Sendable (UnderTest) async throws -> String
    ) {
        self.id = id
        self.evidence = evidence
        self.statement = statement
        self.why = why
        self.catches = catches
        self.kinds = kinds
        self.check = check
    }

    public var description: String { id.rawValue }

    public func applies(to subjectKinds: Set<Kind>) -> Bool { !kinds.isDisjoint(with: subjectKinds) }

    /// "every kind", or the kinds it needs.
    public var needs: String {
        kinds.count == Kind.allCases.count ? "all" : kinds.map(\.rawValue).sorted().joined(separator: " or ")
    }

    /// What the reports print of the rule.
    public var text: RuleText {
        RuleText(id: id, statement: statement, why: why, catches: catches, needs: needs, evidence: evidence)
    }

    /// Runs the check on `underTest` unless the subject declares the rule or it does not apply (settled as a
    /// scheduler rule is: ``RuleJudgement``); times it. The check
    /// has ``RuleDeadline/standard`` (scaled) to finish, as a scheduler rule has: past it the rule fails as not
    /// finished, and `tearDown` is left to the abandoned check, which may still be using the subject.
    func judge(
        _ underTest: UnderTest, kinds subjectKinds: Set<Kind>, subject: String, declarations: [RuleID: String],
        tearDown: @escaping @Sendable () -> Void = {}
    ) async -> RuleResult {
        let started = ContinuousClock.now
        if let settled = RuleJudgement.settled(declaration: declarations[id], applies: applies(to: subjectKinds)) {
            tearDown()
            return RuleJudgement.result(id, on: subject, settled, since: started)
        }
        let (check, evidence) = (check, evidence)
        let outcome = await RuleDeadline.race(RuleDeadline.scaled(RuleDeadline.standard)) {
            defer { tearDown() }
            return await RuleJudgement.outcome(evidence: evidence) { try await check(underTest) }
        }
        return RuleJudgement.result(id, on: subject, outcome, since: started)
    }
}

/// A rule as the reports print it.
public struct RuleText: Sendable {
    public let id: RuleID
    public let statement: String
    public let why: String
    public let catches: String
    /// Which subjects it applies to, in words.
    public let needs: String
    /// Whether a pass is forced or observed.
    public let evidence: RuleEvidence
}

/// Waits (polling every millisecond, on the monotonic clock) until `condition` holds; fails the check after `timeout`.
/// Polling keeps a check off any thread it would have to block: the cooperative pool may be busy with other tests.
/// The blocking checks of scheduler rules poll with `poll(upTo:until:)` or ``ConformanceContext``'s `waitUntil`.
func poll(_ what: String, timeout: Duration, _ condition: @Sendable () -> Bool) async throws {
    let start = SchedulerTime.monotonicNow()
    while !condition() {
        if start.duration(to: .monotonicNow()) > timeout {
            if condition() { return }
            throw RuleFailure("waited \(readable(timeout)) for \(what)")
        }
        try? await Task.sleep(for: .milliseconds(1))
    }
}
