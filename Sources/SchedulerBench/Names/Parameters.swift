/// The parameters of one workload configuration, in a fixed order: numbers first ("producers=4 tasks=80000"), then
/// named choices ("caller=backend"). The printed form is the `parameters` column of the CSV files.
public struct Parameters: Sendable, Hashable, CustomStringConvertible {
    public enum Value: Sendable, Hashable, CustomStringConvertible {
        case number(Int)
        case choice(String)

        public var description: String {
            switch self {
            case .number(let value): String(value)
            case .choice(let option): option
            }
        }
    }

    public let pairs: [(name: ParameterName, value: Value)]

    public init(_ numbers: KeyValuePairs<ParameterName, Int>, choices: KeyValuePairs<ParameterName, String> = [:]) {
        pairs = numbers.map { ($0.key, .number($0.value)) } + choices.map { ($0.key, .choice($0.value)) }
    }

    private init(pairs: [(name: ParameterName, value: Value)]) { self.pairs = pairs }

    /// Parses the printed form; a word without `=`, or an empty name, is an error.
    public init?(parsing text: String) {
        var parsed: [(name: ParameterName, value: Value)] = []
        for word in text.split(separator: " ") {
            let parts = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty else { return nil }
            let value = Int(parts[1]).map(Value.number) ?? .choice(String(parts[1]))
            parsed.append((ParameterName(rawValue: String(parts[0])), value))
        }
        self.init(pairs: parsed)
    }

    /// The number `name` is set to; a workload asks only for the parameters it declares.
    public subscript(_ name: ParameterName) -> Int {
        guard let value = number(name) else { preconditionFailure("no number \(name) in \(self)") }
        return value
    }

    public func number(_ name: ParameterName) -> Int? {
        guard case .number(let value)? = pairs.first(where: { $0.name == name })?.value else { return nil }
        return value
    }

    public func choice(_ name: ParameterName) -> String? {
        guard case .choice(let option)? = pairs.first(where: { $0.name == name })?.value else { return nil }
        return option
    }

    /// The option `name` is set to, as the workload's own type; a workload asks only for the choices it declares,
    /// so anything else is a programming error.
    func option<Option: RawRepresentable & CaseIterable>(_ name: ParameterName) -> Option
    where Option.RawValue == String {
        guard let option = choice(name).flatMap(Option.init(rawValue:)) else {
            let known = Option.allCases.map(\.rawValue).joined(separator: " or ")
            preconditionFailure("\(name)=\(choice(name) ?? "(none)") is not \(known)")
        }
        return option
    }

    /// Whether every pair of `subset` is set here to the same value (a goal's or a sentence's way to name cells).
    public func contains(_ subset: Parameters) -> Bool {
        subset.pairs.allSatisfy { wanted in pairs.contains { $0.name == wanted.name && $0.value == wanted.value } }
    }

    public var description: String { pairs.map { "\($0.name)=\($0.value)" }.joined(separator: " ") }

    public static func == (lhs: Parameters, rhs: Parameters) -> Bool { lhs.description == rhs.description }
    public func hash(into hasher: inout Hasher) { hasher.combine(description) }
}
