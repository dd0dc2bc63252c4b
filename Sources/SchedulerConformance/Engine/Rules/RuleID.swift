/// A rule's id: its family's letters and its number (`C2`, `CL4`, `X1`), as the matrix, the CSV files and the
/// failure messages print it.
///
/// Each id is declared once, as a constant beside its rule in the family's file (`.c4`, `.cl4`, `.x1`), so a
/// declaration (`declarations: [.c4: "a cancelled closure is freed when reached"]`), an expected failure or a look-up
/// (`ConformanceRules.rule(.c2)`) that names no rule does not compile. Text from outside (a command line, a child's
/// output) goes through ``init(_:)``, which answers nil for an id no rule of the registry has.
public struct RuleID: Hashable, Sendable, Comparable, CustomStringConvertible, Codable {
    /// The family's letters (`C`, `CL`, `X`).
    public let family: String
    /// The number within the family.
    public let number: Int

    /// The id of a new rule of `family`: where a family declares its ids (a kind of subject of your own declares its
    /// rules' ids so, beside them).
    public init(newRuleOf family: RuleFamily, number: Int) {
        precondition(number > 0, "RuleID: a rule's number starts at 1, got \(number) in family \(family)")
        self.family = family.letters
        self.number = number
    }

    /// The id called `text`, or nil if no rule of ``ConformanceRules/all`` has it.
    public init?(_ text: String) {
        guard let id = Self.known[text] else { return nil }
        self = id
    }

    /// `C2`, `CL4`.
    public var rawValue: String { family + String(number) }
    public var description: String { rawValue }

    /// As its text (what a child process and a CSV file carry); an unknown id does not decode.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let id = RuleID(text) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "no rule is called \(text)"))
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// In the order the kit lists its rules: by family as ``all`` has them (families of no registered rule last,
    /// by their letters), then by number (so C2 < C10).
    public static func < (a: RuleID, b: RuleID) -> Bool {
        let (familyA, familyB) = (familyOrder[a.family] ?? .max, familyOrder[b.family] ?? .max)
        if familyA != familyB { return familyA < familyB }
        return a.family != b.family ? a.family < b.family : a.number < b.number
    }

    /// Every rule id of the registry, in its order: the ids of ``ConformanceRules/all``.
    public static var all: [RuleID] { registry.all }

    /// "S1–S7, C1–C6, …": the ids there are, for a message.
    public static var summary: String {
        var ranges: [String] = []
        var index = all.startIndex
        while index < all.endIndex {
            let family = all[index].family
            let end = all[index...].firstIndex { $0.family != family } ?? all.endIndex
            ranges.append(end - index == 1 ? "\(all[index])" : "\(all[index])–\(all[end - 1])")
            index = end
        }
        return ranges.joined(separator: ", ")
    }

    /// Read once from the registry: the ids, by their text, and each family's place.
    private static let registry: (all: [RuleID], known: [String: RuleID], familyOrder: [String: Int]) = {
        let all = ConformanceRules.all.map(\.id)
        var order: [String: Int] = [:]
        for id in all where order[id.family] == nil { order[id.family] = order.count }
        return (all, Dictionary(all.map { ($0.rawValue, $0) }, uniquingKeysWith: { first, _ in first }), order)
    }()
    private static var known: [String: RuleID] { registry.known }
    private static var familyOrder: [String: Int] { registry.familyOrder }
}
