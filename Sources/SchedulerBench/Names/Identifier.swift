/// A name of something `bench` measures, typed by what it names, so that a backend's name can never be passed where
/// a workload's is expected and a misspelt name does not compile.
///
/// The names are declared once, as constants (`BackendID.threadPool`, `WorkloadID.pingPong`, …) in this folder.
/// Strings become identifiers only at the edges: a command-line option, or a column of a CSV file read back.
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

public enum BackendKind: IdentifierKind {}
public enum WorkloadKind: IdentifierKind {}
public enum ParameterKind: IdentifierKind {}
package enum GoalKind: IdentifierKind {}

/// A backend under test or a reference row (`dispatch`, `raw-dispatch`, …).
public typealias BackendID = Identifier<BackendKind>
/// A workload (`W1`, `W2`, …: `Workload.all`).
public typealias WorkloadID = Identifier<WorkloadKind>
/// A workload parameter (`tasks`, `producers`, …).
public typealias ParameterName = Identifier<ParameterKind>
/// A performance goal of `Docs/Goals.md`.
package typealias GoalID = Identifier<GoalKind>
