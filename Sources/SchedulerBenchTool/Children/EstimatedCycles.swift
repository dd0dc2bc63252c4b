import SchedulerBench

/// A deterministic stand-in for time on a single-thread path: instructions plus a fixed price for each cache miss
/// that callgrind's cache simulation (`--cache-sim=yes`) counts, as kcachegrind's cycle estimation and CodSpeed do.
///
/// Instructions alone see more work but not a worse memory layout: a change that makes every task miss the cache
/// once more costs no instruction and some 10 % of a 100-instruction path. The estimate sees it, and is still the same
/// on every run of a build. It is an estimate: the prices are a model's (an L1 miss 10 cycles, a last-level miss
/// 100), not this machine's, and it has no branch predictor, no out-of-order overlap and no other thread. So it is
/// counted only where one thread does all the work (inline and virtual-time backends), and gated beside the
/// instructions, never instead of the timed figures.
enum EstimatedCycles {
    static let level1MissCycles: Int64 = 10
    static let lastLevelMissCycles: Int64 = 100

    /// Ir + 10 × (I1mr + D1mr + D1mw) + 100 × (ILmr + DLmr + DLmw), from a dump's totals by event name; nil when the
    /// cache was not simulated.
    static func estimate(_ events: [String: Int64]) -> Int64? {
        guard let instructions = events["Ir"], let i1 = events["I1mr"], let d1Reads = events["D1mr"],
            let d1Writes = events["D1mw"], let lastLevelInstructions = events["ILmr"],
            let lastLevelReads = events["DLmr"], let lastLevelWrites = events["DLmw"]
        else { return nil }
        return instructions + level1MissCycles * (i1 + d1Reads + d1Writes)
            + lastLevelMissCycles * (lastLevelInstructions + lastLevelReads + lastLevelWrites)
    }

    /// callgrind's options: the cache simulated, with a fixed geometry (32 KiB 8-way L1s, an 8 MiB 16-way last
    /// level, 64-byte lines) rather than the host's, so that the estimate is the same on every machine of the same
    /// toolchain and architecture, as the thresholds file assumes.
    static let cacheSimulation = [
        "--cache-sim=yes", "--I1=32768,8,64", "--D1=32768,8,64", "--LL=8388608,16,64",
    ]

    /// Whether the probe simulates the cache for this backend: only where one thread does all the work, since
    /// another thread's timing decides which of a shared line's misses land where.
    static func simulated(_ backend: Backend) -> Bool { backend.execution != .handOff }

    /// Two agreeing runs' estimates may differ by this fraction.
    static let agreement = 0.01

    /// The runs' estimate: their median, or nil when any run lacks one or they disagree.
    static func agreed(_ values: [Double?]) -> Double? {
        let present = values.compactMap { $0 }
        guard present.count == values.count, let low = present.min(), let high = present.max(),
            high - low <= agreement * max(abs(high), 1)
        else { return nil }
        return Statistics.median(present)
    }
}
