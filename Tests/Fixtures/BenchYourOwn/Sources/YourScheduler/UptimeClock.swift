#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A third party's own clock: the monotonic clock read directly, with an instant type of its own. It sleeps in
/// slices of the standard library's sleep and checks its own reading, so that it never ends a sleep early even where
/// the two clocks disagree.
public struct UptimeClock: Clock {
    public struct Instant: InstantProtocol {
        public var nanoseconds: Int64
        public func advanced(by duration: Duration) -> Instant {
            let (seconds, attoseconds) = duration.components
            return Instant(nanoseconds: nanoseconds + seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        }
        public func duration(to other: Instant) -> Duration { .nanoseconds(other.nanoseconds - nanoseconds) }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
    }

    public init() {}

    public var now: Instant {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Instant(nanoseconds: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
    }

    public var minimumResolution: Duration { .nanoseconds(1) }

    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        while now < deadline {
            try await Task.sleep(for: now.duration(to: deadline))
        }
        try Task.checkCancellation()
    }
}
