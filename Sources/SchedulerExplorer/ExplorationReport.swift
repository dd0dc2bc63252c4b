import SchedulerKit

/// How an exploration ran, and the first failure it found, if any.
public struct ExplorationReport: Sendable, CustomStringConvertible {
    /// Schedules run, the failing one included.
    public let schedules: Int
    /// Steps (jobs run) over every schedule.
    public let steps: Int
    /// The first schedule that failed; nil if every one passed.
    public let failure: ExplorationFailure?
    /// Work from outside the exploration that ran because it was allowed (``ExplorationSettings/allowedOutside``):
    /// how many times, by where it came from.
    public let allowedOutside: [String: Int]
    /// How many of the schedules differed from every other in their choices: random and PCT can draw the same order
    /// twice, and a body with few choices has few orders at all.
    public let distinctSchedules: Int
    /// With ``ExplorationStrategy/exhaustive(preemptions:)``: whether every schedule within the bound ran (nil for the
    /// other strategies). False when `schedules` ran out first.
    public let exhausted: Bool?
    /// Tasks that still had work queued when the body returned, in schedules that passed: the work was dropped with
    /// the schedule, so what it would have done was never checked (a fire-and-forget task, a sleeper the body did not
    /// wait for). Empty when no schedule left any.
    public internal(set) var tasksLeftRunning = TasksLeft()

    /// What passing schedules left running when their body returned.
    public struct TasksLeft: Sendable, Equatable {
        /// How many schedules left tasks with work queued.
        public var schedules = 0
        /// The first such schedule's index.
        public var firstSchedule = 0
        /// That schedule's tasks, one line each ("t3 'uploader': asleep, due in 1.0 seconds"), earliest first.
        public var tasks: [String] = []

        public var isEmpty: Bool { schedules == 0 }
    }

    init(
        schedules: Int, steps: Int, failure: ExplorationFailure?, allowedOutside: [String: Int],
        distinctSchedules: Int, exhausted: Bool?
    ) {
        self.schedules = schedules
        self.steps = steps
        self.failure = failure
        self.allowedOutside = allowedOutside
        self.distinctSchedules = distinctSchedules
        self.exhausted = exhausted
    }

    public var description: String {
        if let failure { return failure.description }
        let outside = allowedOutside.sorted { $0.key < $1.key }.map { "\($0.value) from \($0.key)" }
        let head: String
        switch exhausted {
        case true?: head = "all \(schedules) schedules within the bound passed, every one there is (\(steps) steps)"
        case false?: head = "\(schedules) schedules passed, not all there are within the bound (\(steps) steps)"
        case nil: head = "\(schedules) schedules passed, \(distinctSchedules) of them distinct (\(steps) steps)"
        }
        let left =
            tasksLeftRunning.isEmpty
            ? ""
            : "; \(tasksLeftRunning.schedules) left tasks running when the body returned, their work dropped "
                + "(schedule \(tasksLeftRunning.firstSchedule + 1): \(tasksLeftRunning.tasks.joined(separator: "; ")))"
        return head + (outside.isEmpty ? "" : "; allowed from outside: " + outside.joined(separator: ", ")) + left
    }
}

/// A schedule that failed: what went wrong, how to replay it, and what ran.
public struct ExplorationFailure: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The body threw (a ``check(_:_:fileID:line:)`` that failed, `#require`, or any error).
        case threw(String)
        /// No job was ready, no sleeper was due, nothing came from outside in ``ExplorationSettings/outsideWait``,
        /// and the body had not finished: a deadlock, a continuation never resumed, or a wait on something outside.
        case deadlock
        /// The schedule ran ``ExplorationSettings/maxSteps`` jobs without the body finishing.
        case stepLimit(Int)
        /// A job reached the exploration from another thread (a Dispatch callback, `Task.sleep` on
        /// `ContinuousClock`, a task that does not prefer the exploration's executor), from where it came.
        case outside(String)
        /// The process died of `signal` in this schedule (a trap such as a continuation resumed twice, an abort, a
        /// fault): read back from the crash note a child process printed (``ExplorationFailure/init(crashNote:strategies:)``).
        case crashed(signal: Int32)
    }

    public let kind: Kind
    /// The schedule's index in its exploration, counted from 0, and the schedules the exploration was asked for. Text
    /// for people counts from 1: the schedule of index 0 is "schedule 1 of 10".
    public let schedule: Int
    public let of: Int
    /// What ``replay(seed:strategy:settings:_:)`` takes to run this schedule again.
    public let seed: UInt64
    /// With a systematic strategy (``ExplorationStrategy/exhaustive(preemptions:)``): its choices (alternatives, 0 the
    /// default) up to the last that left the default, what ``replay(choices:strategy:settings:_:)`` takes (empty for a
    /// seeded strategy).
    public let choices: [Int]
    public let strategy: ExplorationStrategy
    /// Every step of the schedule, one per line: byte for byte the same in every replay of it.
    public let trace: String

    public var reason: String {
        switch kind {
        case .threw(let message): "the body threw: \(message)"
        case .deadlock:
            "deadlock: no job ready, no sleeper due and nothing from outside, and the body has not finished "
                + "(a task waits for something that never comes, e.g. a continuation never resumed)"
        case .stepLimit(let limit): "\(limit) steps without the body finishing (raise maxSteps if it is not a livelock)"
        case .outside(let place):
            "a job reached the exploration from \(place), outside it: make its source run on the exploration "
                + "(taskExecutor, clock) or allow it by name in ExplorationSettings.allowedOutside"
        case .crashed(let signal):
            "the process died of signal \(signal) (a trap, an abort or a fault); replay it in a child process too"
        }
    }

    public var replayCall: String {
        strategy.isSystematic
            ? "replay(choices: \(choices), strategy: \(strategy.spelling))"
            : "replay(seed: \(Self.hex(seed)), strategy: \(strategy.spelling))"
    }

    public var description: String {
        let which = strategy.isSystematic ? "choices \(choices)" : "seed \(Self.hex(seed))"
        return "schedule \(schedule + 1) of \(of) failed (\(strategy), \(which)): \(reason)\n"
            + "replay it: \(replayCall)\n" + trace
    }

    static func hex(_ value: UInt64) -> String { SplitMix64.text(value) }
}

/// How much a schedule may do, and what may reach it from outside.
public struct ExplorationSettings: Sendable {
    /// Jobs one schedule may run before it fails with ``ExplorationFailure/Kind/stepLimit(_:)``.
    public var maxSteps: Int
    /// Work from outside that may run: a job from a place whose description (`thread 'name'`, `the main thread`,
    /// `an unnamed thread`) contains one of these is counted and run; any other fails the schedule.
    public var allowedOutside: [String]
    /// How long, in real time, a schedule with nothing ready waits for work from outside before it is a deadlock: a
    /// deadlocking schedule costs this much, a passing one nothing. By default 100 ms when nothing from outside is
    /// allowed (whatever arrived would fail the schedule anyway, only with another reason), and 1 s when something
    /// is, so that a slow machine's late arrival (a timer thread, the main queue) is not taken for a deadlock.
    public var outsideWait: Duration

    public init(maxSteps: Int = 10_000, allowedOutside: [String] = [], outsideWait: Duration? = nil) {
        precondition(maxSteps >= 1, "ExplorationSettings: maxSteps must be at least 1, got \(maxSteps)")
        precondition(outsideWait.map { $0 >= .zero } ?? true, "ExplorationSettings: outsideWait must not be negative")
        self.maxSteps = maxSteps
        self.allowedOutside = allowedOutside
        self.outsideWait = outsideWait ?? (allowedOutside.isEmpty ? .milliseconds(100) : .seconds(1))
    }
}
