/// A name, typed by what it names, so that one kind of name can never be passed where another is expected: a
/// scheduler's (``BackendID``, the kit's and the bench's one identity of a scheduler), and the bench's workloads,
/// parameters and goals.
///
/// A name is spelt once, where what it names is declared (a catalog entry's `id: "threadpool"`, a constant such as
/// `WorkloadID.pingPong`); strings become identifiers only at the edges: a command-line option, or a column of a CSV
/// file read back.
public struct Identifier<Kind: IdentifierKind>: RawRepresentable, Hashable, Comparable, Sendable,
    CustomStringConvertible
{
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// What an ``Identifier`` names.
public protocol IdentifierKind: Sendable {}

/// A scheduler judged by the kit and measured by the bench (``ConformanceBackend/id``), or a lane the bench measures
/// beside them (`raw-dispatch`).
public enum BackendKind: IdentifierKind {}

/// A scheduler's id: the `backend` column of the bench's CSV files (`threadpool`).
public typealias BackendID = Identifier<BackendKind>

/// A catalog entry spells its id where it is declared: `ConformanceBackend(id: "threadpool", …)`.
extension Identifier: ExpressibleByUnicodeScalarLiteral, ExpressibleByExtendedGraphemeClusterLiteral,
    ExpressibleByStringLiteral
where Kind == BackendKind {
    public init(stringLiteral value: String) { self.init(rawValue: value) }
}
