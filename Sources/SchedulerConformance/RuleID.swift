/// A rule's id: its family's letters and its number (`C2`, `CL4`, `X1`), as the matrix, the CSV files and the
/// failure messages print it.
///
/// Only the ids of the kit's rules exist. Write them as constants (`.c4`, `.cl4`, `.x1`), so that a typo does not
/// compile: in a declaration (`declarations: [.c4: "a cancelled closure is freed when reached"]`), an expected
/// failure, or a look-up (`ConformanceRules.rule(.c2)`). A string literal still works and is checked where it is
/// made: an unknown one stops the program at once with a message naming the ids there are, in the test that wrote
/// it, rather than a declaration that silently declares nothing. Text from outside (a command line, a child's
/// output) goes through ``init(_:)``, which answers nil for an unknown id; written with a literal argument,
/// `RuleID("C2")` is the literal itself, checked as one.
public struct RuleID: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral, Codable {
    public let rawValue: String

    private init(known: String) { rawValue = known }

    /// The id called `text`, or nil if no rule of the kit has it.
    public init?(_ text: String) {
        guard Self.known.contains(text) else { return nil }
        rawValue = text
    }

    /// A literal id, checked now: an unknown one is a programmer error, reported with the ids there are.
    public init(stringLiteral value: String) {
        guard let id = RuleID(value) else {
            preconditionFailure(
                "RuleID: no rule is called \"\(value)\"; the rules are \(Self.summary) (write a constant such as "
                    + ".c4 and the compiler checks it)")
        }
        self = id
    }

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

    /// The family's letters (`C`, `CL`, `X`).
    public var family: String { String(rawValue.prefix { $0.isLetter }) }
    /// The number within the family.
    public var number: Int { Int(rawValue.drop { $0.isLetter }) ?? 0 }

    /// In the order the kit lists its rules: by family as ``all`` has them, then by number (so C2 < C10).
    public static func < (a: RuleID, b: RuleID) -> Bool {
        let (familyA, familyB) = (familyOrder[a.family] ?? .max, familyOrder[b.family] ?? .max)
        return familyA != familyB ? familyA < familyB : a.number < b.number
    }

    public static let s1 = RuleID(known: "S1")
    public static let s2 = RuleID(known: "S2")
    public static let s3 = RuleID(known: "S3")
    public static let s4 = RuleID(known: "S4")
    public static let s5 = RuleID(known: "S5")
    public static let s6 = RuleID(known: "S6")
    public static let s7 = RuleID(known: "S7")
    public static let c1 = RuleID(known: "C1")
    public static let c2 = RuleID(known: "C2")
    public static let c3 = RuleID(known: "C3")
    public static let c4 = RuleID(known: "C4")
    public static let c5 = RuleID(known: "C5")
    public static let c6 = RuleID(known: "C6")
    public static let k1 = RuleID(known: "K1")
    public static let k2 = RuleID(known: "K2")
    public static let k3 = RuleID(known: "K3")
    public static let k4 = RuleID(known: "K4")
    public static let k5 = RuleID(known: "K5")
    public static let k6 = RuleID(known: "K6")
    public static let r1 = RuleID(known: "R1")
    public static let r2 = RuleID(known: "R2")
    public static let r3 = RuleID(known: "R3")
    public static let r4 = RuleID(known: "R4")
    public static let t1 = RuleID(known: "T1")
    public static let t2 = RuleID(known: "T2")
    public static let t3 = RuleID(known: "T3")
    public static let t4 = RuleID(known: "T4")
    public static let t5 = RuleID(known: "T5")
    public static let t6 = RuleID(known: "T6")
    public static let t7 = RuleID(known: "T7")
    /// A rule only where the package is built with its Combine trait (the default), which its check needs.
    public static let t8 = RuleID(known: "T8")
    public static let v1 = RuleID(known: "V1")
    public static let v2 = RuleID(known: "V2")
    public static let v3 = RuleID(known: "V3")
    public static let v4 = RuleID(known: "V4")
    public static let v5 = RuleID(known: "V5")
    public static let v6 = RuleID(known: "V6")
    public static let v7 = RuleID(known: "V7")
    public static let v8 = RuleID(known: "V8")
    public static let v9 = RuleID(known: "V9")
    public static let l1 = RuleID(known: "L1")
    public static let l2 = RuleID(known: "L2")
    public static let l3 = RuleID(known: "L3")
    public static let l4 = RuleID(known: "L4")
    public static let l5 = RuleID(known: "L5")
    public static let l6 = RuleID(known: "L6")
    public static let p1 = RuleID(known: "P1")
    public static let p2 = RuleID(known: "P2")
    public static let p3 = RuleID(known: "P3")
    public static let p4 = RuleID(known: "P4")
    public static let p5 = RuleID(known: "P5")
    public static let p6 = RuleID(known: "P6")
    public static let e1 = RuleID(known: "E1")
    public static let e2 = RuleID(known: "E2")
    public static let e3 = RuleID(known: "E3")
    public static let e4 = RuleID(known: "E4")
    public static let e5 = RuleID(known: "E5")
    public static let e6 = RuleID(known: "E6")
    public static let n1 = RuleID(known: "N1")
    public static let n2 = RuleID(known: "N2")
    public static let n3 = RuleID(known: "N3")
    public static let m1 = RuleID(known: "M1")
    public static let g1 = RuleID(known: "G1")
    public static let g2 = RuleID(known: "G2")
    public static let cl1 = RuleID(known: "CL1")
    public static let cl2 = RuleID(known: "CL2")
    public static let cl3 = RuleID(known: "CL3")
    public static let cl4 = RuleID(known: "CL4")
    public static let cl5 = RuleID(known: "CL5")
    public static let cl6 = RuleID(known: "CL6")
    public static let cl7 = RuleID(known: "CL7")
    public static let cl8 = RuleID(known: "CL8")
    public static let x1 = RuleID(known: "X1")
    public static let x2 = RuleID(known: "X2")
    public static let x3 = RuleID(known: "X3")
    public static let x4 = RuleID(known: "X4")
    public static let x5 = RuleID(known: "X5")
    public static let x6 = RuleID(known: "X6")
    public static let ge1 = RuleID(known: "GE1")
    public static let ge2 = RuleID(known: "GE2")
    public static let ge3 = RuleID(known: "GE3")
    public static let ge4 = RuleID(known: "GE4")
    public static let ge5 = RuleID(known: "GE5")
    public static let ge6 = RuleID(known: "GE6")
    public static let ex1 = RuleID(known: "EX1")
    public static let ex2 = RuleID(known: "EX2")
    public static let ex3 = RuleID(known: "EX3")
    public static let ex4 = RuleID(known: "EX4")

    /// Every rule id of the kit, family by family: the scheduler rules (E: a scheduler as an executor), then the
    /// clocks' (CL), then the executors' (X), the global executors' (GE) and the explorers' (EX). A test checks that it is exactly the ids of ``ConformanceRules/all``,
    /// ``ExecutorSubjectRules/all`` and ``ClockRules/all``.
    public static let all: [RuleID] = {
        var ids: [RuleID] = [
            .s1, .s2, .s3, .s4, .s5, .s6, .s7, .c1, .c2, .c3, .c4, .c5, .c6, .k1, .k2, .k3, .k4, .k5, .k6, .r1, .r2,
            .r3,
            .r4, .t1, .t2, .t3, .t4, .t5, .t6, .t7, .v1, .v2, .v3, .v4, .v5, .v6, .v7, .v8, .v9, .l1, .l2, .l3, .l4,
            .l5,
            .l6, .p1, .p2, .p3, .p4, .p5, .p6, .e1, .e2, .e3, .e4, .e5, .e6, .g1, .g2, .n1, .n2, .n3, .m1, .cl1, .cl2,
            .cl3,
            .cl4,
            .cl5, .cl6,
            .cl7, .cl8, .x1, .x2, .x3, .x4, .x5, .x6, .ge1, .ge2, .ge3, .ge4, .ge5, .ge6, .ex1, .ex2, .ex3, .ex4,
        ]
        #if Combine
            ids.insert(.t8, at: ids.firstIndex(of: .t7)! + 1)
        #endif
        return ids
    }()

    private static let known = Set(all.map(\.rawValue))
    private static let familyOrder: [String: Int] = {
        var order: [String: Int] = [:]
        for id in all where order[id.family] == nil { order[id.family] = order.count }
        return order
    }()

    /// "S1–S7, C1–C6, …": the ids there are, for a message.
    static var summary: String {
        var ranges: [String] = []
        var index = all.startIndex
        while index < all.endIndex {
            let family = all[index].family
            let end = all[index...].firstIndex { $0.family != family } ?? all.endIndex
            ranges.append("\(all[index])–\(all[end - 1])")
            index = end
        }
        return ranges.joined(separator: ", ")
    }
}
