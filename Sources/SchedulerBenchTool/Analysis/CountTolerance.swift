import SchedulerBench

extension Metric {
    /// How far apart two exact counts of this metric may lie and still be the same count: the one definition that
    /// `bench check`, `bench ab`, `bench compare`, the goals and the report share. Counts are averages over many tasks,
    /// so sub-unit jitter (0.017 against 0.02 size-class bytes per call) is never a difference.
    /// - instructions and estimated cycles: 2 % of the figure (a compiler or libc update shifts a few);
    /// - allocations: 0.1 (one more allocation in ten tasks counts);
    /// - bytes: 2 % of the figure or 8 B (a size class), whichever is more.
    package func countTolerance(around value: Double) -> Double {
        switch unit {
        case "instructions", "estimated cycles": abs(value) * 0.02
        case "allocations": 0.1
        default: max(8, abs(value) * 0.02)
        }
    }

    /// Two exact counts that are the same within ``countTolerance(around:)``.
    package func sameCount(_ a: Double, _ b: Double) -> Bool {
        abs(a - b) <= countTolerance(around: max(abs(a), abs(b)))
    }
}
