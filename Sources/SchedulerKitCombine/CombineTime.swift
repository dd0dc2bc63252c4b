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
        /// Every constructor and operator saturates at ±`Int64.max` ns (about 292 years, the clock's distant future):
        /// operators such as `debounce(for: .seconds(.infinity))` or `.seconds(.max)` mean "never", not a trap. A NaN
        /// stride is a precondition failure.
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

            public init(integerLiteral seconds: Int64) {
                self.init(nanoseconds: Self.saturated(seconds, 1_000_000_000))
            }
            public init(floatLiteral seconds: Double) { self.init(nanoseconds: Self.saturated(seconds, 1e9)) }
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let seconds = Int64(exactly: source) else { return nil }
                let (value, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
                if overflow { return nil }
                self.init(nanoseconds: value)
            }

            public var magnitude: Stride { Stride(nanoseconds: nanoseconds == .min ? .max : abs(nanoseconds)) }

            public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
            public static func + (lhs: Stride, rhs: Stride) -> Stride {
                let (sum, overflow) = lhs.nanoseconds.addingReportingOverflow(rhs.nanoseconds)
                return Stride(nanoseconds: overflow ? (rhs.nanoseconds > 0 ? .max : -.max) : sum)
            }
            public static func - (lhs: Stride, rhs: Stride) -> Stride {
                let (difference, overflow) = lhs.nanoseconds.subtractingReportingOverflow(rhs.nanoseconds)
                return Stride(nanoseconds: overflow ? (rhs.nanoseconds < 0 ? .max : -.max) : difference)
            }
            /// Both sides are read in seconds, the unit of the literals, so `.seconds(2) * 3` is 6 s.
            public static func * (lhs: Stride, rhs: Stride) -> Stride {
                let product = Int128(lhs.nanoseconds) * Int128(rhs.nanoseconds) / 1_000_000_000
                return Stride(nanoseconds: Int64(clamping: max(product, -Int128(Int64.max))))
            }
            public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
            public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
            public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }

            public static func seconds(_ s: Int) -> Stride { Stride(nanoseconds: saturated(Int64(s), 1_000_000_000)) }
            public static func seconds(_ s: Double) -> Stride { Stride(nanoseconds: saturated(s, 1e9)) }
            public static func milliseconds(_ ms: Int) -> Stride {
                Stride(nanoseconds: saturated(Int64(ms), 1_000_000))
            }
            public static func microseconds(_ us: Int) -> Stride { Stride(nanoseconds: saturated(Int64(us), 1_000)) }
            public static func nanoseconds(_ ns: Int) -> Stride { Stride(nanoseconds: Int64(ns)) }

            /// `count` units of `unit` nanoseconds, clamped to ±`Int64.max`.
            private static func saturated(_ count: Int64, _ unit: Int64) -> Int64 {
                let (product, overflow) = count.multipliedReportingOverflow(by: unit)
                return overflow ? (count > 0 ? .max : -.max) : product
            }

            /// `count` units of `unit` nanoseconds, rounded, clamped to ±`Int64.max` (infinities included).
            private static func saturated(_ count: Double, _ unit: Double) -> Int64 {
                precondition(!count.isNaN, "a Combine stride of NaN seconds: give a number of seconds")
                let nanoseconds = (count * unit).rounded()
                // 2^63 is the first Double past Int64.max.
                guard abs(nanoseconds) < 0x1p63 else { return nanoseconds > 0 ? .max : -.max }
                return Int64(nanoseconds)
            }
        }
    }
#endif
