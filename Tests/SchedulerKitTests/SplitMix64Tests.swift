import Testing

@testable import SchedulerKit

/// A seed replays a schedule only while the generator draws the same values: `next(below:)` skips the division
/// where it can, and must still draw what the plain multiply-and-reject draws.
@Suite struct SplitMix64Tests {
    /// Lemire's method as written in the paper: the threshold computed on every draw.
    static func plainNext(below bound: UInt64, _ generator: inout SplitMix64) -> UInt64 {
        while true {
            let product = generator.next().multipliedFullWidth(by: bound)
            if product.low >= (0 &- bound) % bound { return product.high }
        }
    }

    @Test(
        "next(below:) draws what the plain method draws, for small bounds and bounds that reject often",
        arguments: [1, 2, 3, 10, 1_000, 1 << 32 + 1, 1 << 63 + 1, 3 << 62, UInt64.max] as [UInt64])
    func drawsTheSameAsThePlainMethod(bound: UInt64) {
        var fast = SplitMix64(seed: bound)
        var plain = SplitMix64(seed: bound)
        for draw in 0..<10_000 {
            let value = fast.next(below: bound)
            guard value == Self.plainNext(below: bound, &plain), value < bound else {
                Issue.record("bound \(bound), draw \(draw): \(value)")
                return
            }
        }
    }
}
