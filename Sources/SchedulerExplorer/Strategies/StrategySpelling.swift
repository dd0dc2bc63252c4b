/// A strategy as text, the one form the explorer writes and reads: its name and whole-number parameters, spelled as
/// the Swift that makes it (`.random`, `.pct(depth: 2, steps: 50)`, `.exhaustive(preemptions: 2)`). A failure's
/// replay line writes it, so the line can be pasted into a test; a crash note carries it, and
/// ``ExplorationFailure/init(crashNote:strategies:)`` reads it back.
public struct StrategySpelling: Sendable, Hashable, CustomStringConvertible {
    /// One labelled parameter: `depth: 2`.
    public struct Parameter: Sendable, Hashable {
        public let label: String
        public let value: Int
    }

    /// The static member that makes the strategy: `pct`.
    public let name: String
    public let parameters: [Parameter]

    /// `name` is an identifier; `parameters`, in the order the call takes them.
    public init(_ name: String, _ parameters: KeyValuePairs<String, Int> = [:]) {
        precondition(Self.isIdentifier(name), "StrategySpelling: \"\(name)\" is not an identifier")
        self.name = name
        self.parameters = parameters.map { Parameter(label: $0.key, value: $0.value) }
    }

    /// The value of the parameter labelled `label`, if there is one.
    public subscript(label: String) -> Int? { parameters.first { $0.label == label }?.value }

    /// `.pct(depth: 2, steps: 50)`, or `.random` without parameters.
    public var description: String {
        parameters.isEmpty
            ? "." + name
            : ".\(name)(" + parameters.map { "\($0.label): \($0.value)" }.joined(separator: ", ") + ")"
    }

    /// Reads what ``description`` wrote (spaces around the parts allowed); nil for anything else.
    public init?(_ text: String) {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        guard rest.first == "." else { return nil }
        rest = rest.dropFirst()
        let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        guard Self.isIdentifier(String(name)) else { return nil }
        rest = rest.dropFirst(name.count)
        var parameters: [Parameter] = []
        if !rest.isEmpty {
            guard rest.first == "(", rest.last == ")" else { return nil }
            for part in rest.dropFirst().dropLast().split(separator: ",", omittingEmptySubsequences: false) {
                let pair = part.split(separator: ":", omittingEmptySubsequences: false)
                guard pair.count == 2, case let label = pair[0].trimmingCharacters(in: .whitespaces),
                    Self.isIdentifier(label), let value = Int(pair[1].trimmingCharacters(in: .whitespaces))
                else { return nil }
                parameters.append(Parameter(label: label, value: value))
            }
        }
        self.name = String(name)
        self.parameters = parameters
    }

    private static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.first, first.isLetter || first == "_" else { return false }
        return text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }
}
