#if Combine
    import SchedulerKit
    import SchedulerKitCombine
    import Testing

    @Suite struct CombineTimeTests {
        typealias Stride = CombineSchedulerTime.Stride

        @Test func literalsAreSecondsAsInDispatch() {
            #expect((1 as Stride) == .seconds(1))
            #expect((0.25 as Stride) == .milliseconds(250))
            #expect(Stride.microseconds(3).nanoseconds == 3_000)
            #expect(Stride.seconds(1.5).nanoseconds == 1_500_000_000)
        }

        @Test func multiplicationReadsBothSidesInSeconds() {
            #expect(Stride.seconds(2) * 3 == .seconds(6))
            #expect(Stride.milliseconds(500) * 0.5 == .milliseconds(250))
        }

        @Test func distanceAndAdvanceAgree() {
            let start = CombineSchedulerTime(SchedulerTime(nanoseconds: 1_000))
            let later = start.advanced(by: .milliseconds(5))
            #expect(start.distance(to: later) == .milliseconds(5))
            #expect(later.time.nanoseconds == 5_001_000)
        }

        @Test func advancingPastTheEndOfTheClockSaturates() {
            let start = CombineSchedulerTime(SchedulerTime(nanoseconds: 1))
            #expect(start.advanced(by: Stride(nanoseconds: .max)).time == .distantFuture)
            #expect(start.advanced(by: Stride(nanoseconds: .min)).time == .zero)
            #expect(start.advanced(by: .seconds(-1)).time == .zero, "the clock starts at 0")
        }

        /// Combine code writes "never" as a huge stride (`.seconds(.infinity)`, `.seconds(.max)`); each saturates at
        /// the distant future instead of trapping, and so does arithmetic on strides.
        @Test func hugeStridesSaturateInsteadOfTrapping() {
            let never = Stride(nanoseconds: .max)
            #expect(Stride.seconds(Double.infinity) == never)
            #expect(Stride.seconds(Double.greatestFiniteMagnitude) == never)
            #expect(Stride.seconds(-Double.infinity) == Stride(nanoseconds: -.max))
            #expect(Stride.seconds(Int.max) == never)
            #expect(Stride.milliseconds(Int.max) == never)
            #expect(Stride.microseconds(Int.min) == Stride(nanoseconds: -.max))
            #expect(Stride(integerLiteral: .max) == never)
            #expect(never + .seconds(1) == never)
            #expect(Stride(nanoseconds: -.max) - .seconds(1) == Stride(nanoseconds: -.max))
            #expect(Stride.seconds(Int.max / 2_000_000_000) * 4 == never)
            #expect(Stride.seconds(3) * 2 == .seconds(6), "saturation leaves ordinary products alone")
            let start = CombineSchedulerTime(SchedulerTime(nanoseconds: 1))
            #expect(start.advanced(by: .seconds(.infinity)).time == .distantFuture)
        }
    }
#endif
