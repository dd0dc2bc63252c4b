/// A kind of subject the kit judges (schedulers, clocks, executors, …), in the words its verdicts and reports use.
///
/// Each subject type describes its kind once (``ConformanceSubject/kind``); nothing in the engine lists the kinds.
/// Rules are about one kind, and a report shows one matrix per kind, in the order the rules first name them.
public struct SubjectKind: Sendable, Hashable, CustomStringConvertible {
    /// One subject of the kind, in a sentence: "scheduler", "clock", "global executor".
    public let name: String
    /// Several: "schedulers", "clocks".
    public let plural: String
    /// What a verdict calls a subject that did not finish a rule: "this *backend* did not finish S1 either".
    public let noun: String
    /// What a check that did not finish was inside, when it was in none of the kit's waits: "the check's thread is
    /// inside a call to *the scheduler or its session*".
    public let inside: String
    /// The heading of the kind's matrix in a report.
    public let matrixTitle: String
    /// The sentence under that heading.
    public let matrixIntro: String
    /// How a test evaluates one rule on a subject of the kind, with `RULE` where the rule goes:
    /// "backend.evaluate(RULE)".
    public let rerun: String

    public init(
        name: String, plural: String, noun: String, inside: String, matrixTitle: String, matrixIntro: String,
        rerun: String
    ) {
        self.name = name
        self.plural = plural
        self.noun = noun
        self.inside = inside
        self.matrixTitle = matrixTitle
        self.matrixIntro = matrixIntro
        self.rerun = rerun
    }

    public var description: String { name }

    /// One kind is one name: two descriptions of the same name are the same kind.
    public static func == (a: SubjectKind, b: SubjectKind) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

/// What the subjects of a kind claim when they claim nothing: every rule of the kind applies to each (the global
/// executors').
public struct NoClaims: Sendable, Hashable {
    public init() {}
}
