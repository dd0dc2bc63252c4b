#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A monotonic instant in nanoseconds (since boot on the real clock, since zero on a virtual one),
/// with `Duration` arithmetic. The real clock is `CLOCK_MONOTONIC`, the clock Dispatch's `DispatchTime` uses.
public struct SchedulerTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let nanoseconds: Int64

    public init(nanoseconds: Int64) {
        precondition(nanoseconds >= 0, "SchedulerTime(nanoseconds:): must be >= 0, got \(nanoseconds)")
        self.nanoseconds = nanoseconds
    }

    public static let zero = SchedulerTime(nanoseconds: 0)
    /// Later than any deadline anyone can reach.
    public static let distantFuture = SchedulerTime(nanoseconds: .max)

    /// The monotonic clock, read now.
    public static func monotonicNow() -> SchedulerTime {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return SchedulerTime(nanoseconds: Int64(ts.tv_sec) &* 1_000_000_000 &+ Int64(ts.tv_nsec))
    }

    /// `self + duration`; times before zero clamp to zero, overflow is a precondition failure naming `argument`.
    public func advanced(by duration: Duration, argument: String = "duration") -> SchedulerTime {
        let delta = duration.nanosecondsChecked(argument: argument)
        let (sum, overflow) = nanoseconds.addingReportingOverflow(delta)
        precondition(!overflow, "\(argument): \(duration) after \(self) overflows the 64-bit nanosecond clock")
        return SchedulerTime(nanoseconds: max(0, sum))
    }

    /// The signed duration from `self` to `other`.
    public func duration(to other: SchedulerTime) -> Duration {
        .nanoseconds(other.nanoseconds - nanoseconds)
    }

    public static func + (lhs: SchedulerTime, rhs: Duration) -> SchedulerTime { lhs.advanced(by: rhs) }
    public static func - (lhs: SchedulerTime, rhs: Duration) -> SchedulerTime { lhs.advanced(by: .zero - rhs) }
    public static func - (lhs: SchedulerTime, rhs: SchedulerTime) -> Duration { rhs.duration(to: lhs) }
    public static func < (lhs: SchedulerTime, rhs: SchedulerTime) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    public var description: String { "SchedulerTime(\(nanoseconds) ns)" }
}

extension Duration {
    /// Whole nanoseconds (rounded toward zero); a value beyond 64 bits is a precondition failure naming `argument`.
    public func nanosecondsChecked(argument: String = "duration") -> Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (total, overflow2) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        precondition(!overflow && !overflow2, "\(argument): \(self) does not fit in 64-bit nanoseconds")
        return total
    }
}

/// Argument checks shared by every timed scheduler, so each message names the argument and its value.
public enum ArgumentCheck {
    /// The arguments of `schedule(at:every:leeway:)`: a positive interval and a non-negative leeway, each within
    /// the nanosecond range; anything else is a programmer error.
    public static func repeating(interval: Duration, leeway: Duration) {
        precondition(interval > .zero, "schedule(at:every:leeway:): interval must be > 0, got \(interval)")
        precondition(leeway >= .zero, "schedule(at:every:leeway:): leeway must be >= 0, got \(leeway)")
        _ = interval.nanosecondsChecked(argument: "interval")
        _ = leeway.nanosecondsChecked(argument: "leeway")
    }
}
