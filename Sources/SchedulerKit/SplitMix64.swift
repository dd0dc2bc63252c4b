/// Steele, Lea and Flood's SplitMix64: a small generator whose whole state is one seed, so a schedule's seed is all
/// it takes to replay it, and bootstraps and random deadlines are the same from run to run. Not for cryptography. One
/// copy for the package: the explorer's schedules, the kit's random programs, the bench's statistics.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in `0..<bound` (Lemire's multiply-and-reject, no modulo bias). The rejection threshold is below
    /// `bound`, so a low half at or above `bound` is accepted without computing it: the 64-bit division runs only
    /// when the low half falls below `bound` (a chance of `bound` in 2^64), and the values drawn are the same.
    package mutating func next(below bound: UInt64) -> UInt64 {
        precondition(bound > 0)
        var product = next().multipliedFullWidth(by: bound)
        guard product.low < bound else { return product.high }
        let threshold = (0 &- bound) % bound
        while product.low < threshold { product = next().multipliedFullWidth(by: bound) }
        return product.high
    }

    /// A seed as it is printed and read back (`0x9A23C3A0FFEDFE9`): by the explorer's failures and the kit's M1.
    package static func text(_ seed: UInt64) -> String { "0x" + String(seed, radix: 16, uppercase: true) }

    /// A seed written by ``text(_:)`` (or the crash note), read back; nil if it is not one.
    package static func parse(_ text: String) -> UInt64? {
        guard text.hasPrefix("0x") else { return nil }
        return UInt64(text.dropFirst(2), radix: 16)
    }

    /// The seed of schedule `index` of an exploration seeded with `seed`: each schedule replays alone.
    package static func scheduleSeed(_ seed: UInt64, index: Int) -> UInt64 {
        var generator = SplitMix64(seed: seed &+ UInt64(index) &* 0xD1B5_4A32_D192_ED03)
        return generator.next()
    }
}
