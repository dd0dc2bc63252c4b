import Foundation
import SchedulerKit

/// One numbered promise a subject can keep (a scheduler, a clock, an executor: ``ConformanceSubject``), with the check
/// that tests it through the subject's public API only. Every kind's rules are this one type: a rule is about one
/// kind of subject, its gate reads what a subject of that kind claims, and its check works on what the subject makes
/// fresh for it (``ConformanceSubject/Target``). Each kind's folder has the initialiser its rules use
/// (``init(id:family:evidence:statement:why:catches:requires:excludes:requiresOneOf:deadline:check:)`` for a
/// scheduler's); a kind of your own uses ``init(id:family:evidence:statement:why:catches:about:gate:deadline:check:)``.
public struct ConformanceRule: Sendable, Identifiable, CustomStringConvertible {
    public let id: RuleID
    public let family: RuleFamily
    /// Whether a pass is forced or observed, and over how many trials (``RuleEvidence``).
    public let evidence: RuleEvidence
    /// One sentence: what a conforming subject guarantees.
    public let statement: String
    /// Why users need the promise.
    public let why: String
    /// What breaking it looked like in the peers (their reported bugs, by number) or what it would look like here.
    public let catches: String
    /// How long the check may take before the rule fails as not finished (``RuleDeadline``), before scaling.
    public let deadline: Duration
    /// The kind of subject the rule is about: a rule about another kind is no cell of a subject's row.
    public let kind: SubjectKind
    /// What the rule needs of a subject, in words: "needs serial, timed; not on virtual-time", "every clock".
    public let applicability: String
    /// The gate, on the claims of a subject of the rule's kind (false for claims of another type).
    private let admits: @Sendable (any Sendable) -> Bool
    /// The check, on a subject of the rule's kind: makes its fresh target and runs on it.
    private let check: @Sendable (any ConformanceSubject, CheckProgress) throws -> String

    /// A rule about subjects of type `Subject` that `gate` admits: `check` runs on the calling thread (the kit's
    /// check thread) on a target the subject makes fresh for it, throws ``RuleFailure`` when the promise is broken,
    /// and returns a note for the report (measurements), or "".
    public init<Subject: ConformanceSubject>(
        id: RuleID, family: RuleFamily, evidence: RuleEvidence = .forced, statement: String, why: String,
        catches: String, about subject: Subject.Type, gate: RuleGate<Subject.Claims>,
        deadline: Duration = RuleDeadline.standard, check: @escaping @Sendable (Subject.Target) throws -> String
    ) {
        precondition(
            id.family == family.letters, "ConformanceRule \(id): its id is not of its family \(family.letters)")
        self.id = id
        self.family = family
        self.evidence = evidence
        self.statement = statement
        self.why = why
        self.catches = catches
        self.deadline = deadline
        self.kind = Subject.kind
        self.applicability = gate.description
        self.admits = { claims in (claims as? Subject.Claims).map(gate.admits) ?? false }
        self.check = { subject, progress in
            // The engine runs a rule only on subjects its gate admitted, which are of its kind.
            guard let subject = subject as? Subject else {
                throw RuleFailure("the rule's check is for \(Subject.kind.plural), not for this \(subject.kind.name)")
            }
            return try subject.withFreshTarget(progress, check)
        }
    }

    /// Whether a subject can hold what the check needs: it is of the rule's kind and its gate admits what it claims.
    /// A rule that cannot apply is n/a, never failed.
    public func applies(to subject: some ConformanceSubject) -> Bool {
        subject.kind == kind && admits(subject.claims)
    }

    /// Whether a subject of the rule's kind that claims `claims` can hold what the check needs (false for the claims
    /// of another kind): `rule.applies(to: SchedulerTraits.serial)`, `rule.applies(to: ClockClaims(kind: .real, stoppable: false))`.
    @_disfavoredOverload
    public func applies(to claims: some Sendable) -> Bool { admits(claims) }

    /// Runs the check on `subject`'s fresh target (the engine's call, on the check thread).
    func run(on subject: some ConformanceSubject, _ progress: CheckProgress) throws -> String {
        try check(subject, progress)
    }

    public var description: String { id.rawValue }
}
