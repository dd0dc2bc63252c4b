import SchedulerBench
import SchedulerKit
import ToolSupport

/// What the tool's analyses add to the runtime's statistics: a paired difference, and the ratio of two medians
/// measured apart (two configurations of a workload), whose interval comes from a bootstrap (2 000 resamples, fixed
/// seed: reproducible).
extension Statistics {
    static let bootstrapResamples = 2_000
    static let seed: UInt64 = 0x5eed

    /// The median of the per-round differences `a[i] − b[i]`, with its distribution-free interval.
    package static func pairedDifference(_ a: [Double], minus b: [Double], confidence: Double = 0.95) -> Estimate? {
        let differences = zip(a, b).map { $0 - $1 }
        guard !differences.isEmpty else { return nil }
        return medianEstimate(differences, confidence: confidence)
    }

    /// median(a) / median(b) for two samples that were not measured in pairs (two cells of one workload), with an
    /// interval from resampling each sample on its own.
    package static func unpairedRatio(_ a: [Double], over b: [Double], confidence: Double = 0.95) -> Estimate? {
        guard !a.isEmpty, !b.isEmpty, median(b) > 0 else { return nil }
        var generator = SplitMix64(seed: seed)
        var ratios: [Double] = []
        ratios.reserveCapacity(bootstrapResamples)
        for _ in 0..<bootstrapResamples {
            let top = median(a.indices.map { _ in a[Int(generator.next() % UInt64(a.count))] })
            let bottom = median(b.indices.map { _ in b[Int(generator.next() % UInt64(b.count))] })
            if bottom > 0 { ratios.append(top / bottom) }
        }
        return interval(of: ratios, confidence: confidence, point: median(a) / median(b))
    }

    private static func interval(of draws: [Double], confidence: Double, point: Double) -> Estimate {
        let sorted = draws.sorted()
        guard !sorted.isEmpty else { return .exact(point) }
        let tail = (1 - confidence) / 2
        return Estimate(
            value: point, low: ToolSupport.quantile(sorted: sorted, tail),
            high: ToolSupport.quantile(sorted: sorted, 1 - tail))
    }
}
