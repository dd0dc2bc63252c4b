#if Combine
    import Dispatch
    import SchedulerKit
    import SchedulerKitCombine

    extension TimeRules {
        /// The rules under the Combine trait: T8 judges SchedulerKit's `CombineScheduler` over every timed subject.
        static let combine: [ConformanceRule] = [combineTime]

        /// Combine's operators never see a scheduler's `schedule(at:)`: they compute every date from `now` and
        /// strides. T8 asks what they ask, through the adapter a user writes `receive(on: scheduler.combine)` with.
        static let combineTime = ConformanceRule(
            id: .t8, family: .time,
            statement:
                "As a Combine scheduler (scheduler.combine), it keeps its own time: Combine's now reads the scheduler's clock, distance(to:) and advanced(by:) agree in size and sign, work Combine schedules for now + 20 ms (as delay does) starts no earlier than 20 ms later by the scheduler's clock, and an interval Combine measures between two events 20 ms apart (as measureInterval does) is at least 20 ms.",
            why:
                "debounce, throttle, delay, timeout and measureInterval compute every date from the scheduler's now and strides: a now on another clock, or a stride of the wrong sign, fires them at the wrong time or never, while the scheduler itself keeps every other rule.",
            catches:
                "A CombineScheduler whose now reads the monotonic clock rather than its base's (on virtual time, delayed work is then due hours ahead) or whose distance(to:) has its sign reversed (measureInterval reports negative intervals): the fresh mutant set's 108 and 110, which no rule judging a scheduler directly can see.",
            requires: .timed
        ) { context in
            try combineTime(of: try context.makeTimedScheduler(), context)
        }

        private static func combineTime<Base: TimedScheduler>(of scheduler: Base, _ context: ConformanceContext) throws
            -> String
        {
            let combine = scheduler.combine
            let before = scheduler.now
            let now = combine.now
            let after = scheduler.now
            try require(
                before <= now.time && now.time <= after,
                "Combine's now read \(now.time), outside the scheduler's clock read just before (\(before)) and after (\(after))"
            )
            for stride in [CombineSchedulerTime.Stride.milliseconds(1), .milliseconds(20), .seconds(1)] {
                let later = now.advanced(by: stride)
                try require(
                    later > now && now.distance(to: later) == stride && later.distance(to: now) == -stride,
                    "now.advanced(by: \(stride)) is \(later); the distance there is \(now.distance(to: later)) and back \(later.distance(to: now))"
                )
            }
            let delay = CombineSchedulerTime.Stride.milliseconds(20)
            let start = combine.now
            let startedAt = Shared<SchedulerTime?>(nil)
            combine.schedule(after: start.advanced(by: delay), tolerance: .zero, options: nil) {
                startedAt.update { $0 = scheduler.now }
            }
            try context.waitUntil("work Combine scheduled 20 ms ahead", on: scheduler) { startedAt.value != nil }
            let waited = Duration.nanoseconds((startedAt.value?.nanoseconds ?? 0) - start.time.nanoseconds)
            try require(
                waited >= delay.duration,
                "work Combine scheduled for now + 20 ms started \(readable(waited)) after now by the scheduler's clock")
            let first = combine.now
            if let driver = scheduler as? any VirtualTimeDriver {
                driver.advance(by: delay.duration)
            } else {
                while scheduler.now < first.time + delay.duration { sleepBriefly() }
            }
            let measured = first.distance(to: combine.now)
            try require(
                measured >= delay,
                "Combine measured \(readable(measured.duration)) between two events 20 ms apart by the scheduler's clock"
            )
            return
                "delayed work started \(readable(waited)) after now (20 ms asked); 20 ms measured as \(readable(measured.duration))"
        }
    }
#endif
