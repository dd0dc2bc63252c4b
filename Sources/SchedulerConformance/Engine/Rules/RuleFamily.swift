/// A family of rules (`C`: cancellation, `CL`: clocks): the letters of its rules' ids and its title. Each family is
/// declared once, beside its rules; the families' order is the order the registry's rules first name them.
public struct RuleFamily: Sendable, Hashable, CustomStringConvertible {
    /// The letters of its rules' ids: `C`, `CL`, `GE`.
    public let letters: String
    /// What its rules are about, as the rule lists head them.
    public let title: String

    /// A family whose ids start with `letters` (capital letters only, unique among the families).
    public init(_ letters: String, title: String) {
        precondition(
            !letters.isEmpty && letters.allSatisfy { $0.isUppercase && $0.isLetter },
            "RuleFamily: the letters of a family are capital letters, got \"\(letters)\"")
        self.letters = letters
        self.title = title
    }

    public var description: String { letters }

    /// One family is one set of letters.
    public static func == (a: RuleFamily, b: RuleFamily) -> Bool { a.letters == b.letters }
    public func hash(into hasher: inout Hasher) { hasher.combine(letters) }
}
