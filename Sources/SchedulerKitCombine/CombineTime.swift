#if Combine
    import SchedulerKit

    #if canImport(Combine)
        import Combine
    #else
        import OpenCombine
    #endif

    /// A SchedulerKit clock reading as Combine's `SchedulerTimeType`: a point on the wrapped scheduler's monotonic
    /// clock (virtual on ``TestScheduler``), in nanoseconds.
    public struct CombineSchedulerTime: Strideable, Hashable, Sendable, CustomStringConvertible {
        public let time: SchedulerTime

        public init(_ time: SchedulerTime) { self.time = time }

        public func distance(to other: CombineSchedulerTime) -> Stride {
            Stride(nanoseconds: other.time.nanoseconds &- time.nanoseconds)
        }

        /// Saturates at the ends of the clock (0 and the distant future): Combine's operators add and subtract strides
        /// freely, and `now.advanced(by: .seconds(.max))` must be a date, not a trap.
        public func advanced(by stride: Stride) -> CombineSchedulerTime {
            let (sum, overflow) = time.nanoseconds.addingReportingOverflow(stride.nanoseconds)
            let clamped = overflow ? (stride.nanoseconds > 0 ? Int64.max : 0) : max(0, sum)
            return CombineSchedulerTime(SchedulerTime(nanoseconds: clamped))
        }

        public var description: String { time.description }

        /// A span of time in nanoseconds. Integer and float literals are seconds, as in Combine's `DispatchQueue` stride.
        public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, Hashable, Sendable,
            ExpressibleByFloatLiteral, CustomStringConvertible
        {
            public var nanoseconds: Int64

            public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }
            public init(_ duration: Duration) {
                self.init(nanoseconds: duration.nanosecondsChecked(argument: "stride"))
            }

            public var duration: Duration { .nanoseconds(nanoseconds) }
            public var description: String { "\(nanoseconds) ns" }

            public init(integerLiteral seconds: Int64) { self.init(nanoseconds: seconds * 1_000_000_000) }
            public init(floatLiteral seconds: Double) { self.init(nanoseconds: Int64((seconds * 1e9).rounded())) }
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let seconds = Int64(exactly: source) else { return nil }
                let (value, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
                if overflow { return nil }
                self.init(nanoseconds: value)
            }

            public var magnitude: Stride { Stride(nanoseconds: nanoseconds == .min ? .max : abs(nanoseconds)) }

            public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
            public static func + (lhs: Stride, rhs: Stride) -> Stride {
                Stride(nanoseconds: lhs.nanoseconds + rhs.nanoseconds)
            }
            public static func - (lhs: Stride, rhs: Stride) -> Stride {
                Stride(nanoseconds: lhs.nanoseconds - rhs.nanoseconds)
            }
            /// Both sides are read in seconds, the unit of the literals, so `.seconds(2) * 3` is 6 s.
            public static func * (lhs: Stride, rhs: Stride) -> Stride {
                let product = lhs.nanoseconds.multipliedFullWidth(by: rhs.nanoseconds)
                return Stride(nanoseconds: Int64(1_000_000_000).dividingFullWidth(product).quotient)
            }
            public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
            public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
            public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }

            public static func seconds(_ s: Int) -> Stride { Stride(nanoseconds: Int64(s) * 1_000_000_000) }
            public static func seconds(_ s: Double) -> Stride { Stride(nanoseconds: Int64((s * 1e9).rounded())) }
            public static func milliseconds(_ ms: Int) -> Stride { Stride(nanoseconds: Int64(ms) * 1_000_000) }
            public static func microseconds(_ us: Int) -> Stride { Stride(nanoseconds: Int64(us) * 1_000) }
            public static func nanoseconds(_ ns: Int) -> Stride { Stride(nanoseconds: Int64(ns)) }
        }
    }
#endif
