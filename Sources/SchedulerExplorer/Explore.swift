import Foundation
@_spi(Explorer) @_spi(Threads) import SchedulerKit

/// Runs `body` under `schedules` schedules, each a fresh ``ExploringScheduler`` choosing by `strategy` with its own
/// seed drawn from `seed`, and stops at the first that fails. Call it from any test (Swift Testing or XCTest):
///
/// ```swift
/// let report = await explore(schedules: 1_000, strategy: .random) { exploration in
///     let account = Account()
///     async let a: Void = account.withdraw(70)
///     async let b: Void = account.withdraw(70)
///     _ = await (a, b)
///     try check(await account.balance >= 0, "overdrawn: \(await account.balance)")
/// }
/// #expect(report.failure == nil, "\(report)")
/// ```
///
/// The body runs in a task preferring ``Exploration/taskExecutor``; its child tasks (`async let`, task groups) and the
/// default actors they call run there too, one job at a time on the exploration's own thread, never on Swift's
/// cooperative pool. A failure (the body threw, a deadlock, too many steps, a job from outside) carries the schedule's
/// seed, its index and a trace; ``replay(seed:strategy:settings:_:)`` runs that schedule again, step for step.
public func explore(
    schedules: Int, strategy: ExplorationStrategy = .random, seed: UInt64 = 0,
    settings: ExplorationSettings = ExplorationSettings(),
    _ body: @escaping @Sendable (Exploration) async throws -> Void
) async -> ExplorationReport {
    precondition(schedules >= 1, "explore(schedules:): at least 1 schedule, got \(schedules)")
    let runner = ExplorationRunner(
        strategy: strategy, settings: settings, body: body,
        seeds: (0..<schedules).map { SplitMix64.scheduleSeed(seed, index: $0) })
    return await runner.runOnItsThread()
}

/// Runs the one schedule `seed` names (a failure's ``ExplorationFailure/seed``) with the same strategy and settings,
/// exactly as it ran: the same choices, the same steps, the same trace.
public func replay(
    seed: UInt64, strategy: ExplorationStrategy, settings: ExplorationSettings = ExplorationSettings(),
    _ body: @escaping @Sendable (Exploration) async throws -> Void
) async -> ExplorationReport {
    await ExplorationRunner(strategy: strategy, settings: settings, body: body, seeds: [seed]).runOnItsThread()
}

/// Runs the one schedule of an exhaustive exploration that `choices` names (a failure's
/// ``ExplorationFailure/choices``): the same choices, the same steps, the same trace.
public func replay(
    choices: [Int], strategy: ExplorationStrategy, settings: ExplorationSettings = ExplorationSettings(),
    _ body: @escaping @Sendable (Exploration) async throws -> Void
) async -> ExplorationReport {
    precondition(choices.allSatisfy { $0 >= 0 }, "replay(choices:): a choice is a rank, never negative")
    return await ExplorationRunner(
        strategy: strategy, settings: settings, body: body, seeds: [0], replaying: choices
    ).runOnItsThread()
}

/// One exploration: its schedules, run one after another on a thread of its own (the driving thread), never on the
/// cooperative pool, whose few threads the test itself may need.
final class ExplorationRunner: Sendable {
    let strategy: ExplorationStrategy
    let settings: ExplorationSettings
    let body: @Sendable (Exploration) async throws -> Void
    let seeds: [UInt64]
    /// The choices of the one exhaustive schedule to replay; nil: explore.
    let replaying: [Int]?

    init(
        strategy: ExplorationStrategy, settings: ExplorationSettings,
        body: @escaping @Sendable (Exploration) async throws -> Void, seeds: [UInt64], replaying: [Int]? = nil
    ) {
        self.strategy = strategy
        self.settings = settings
        self.body = body
        self.seeds = seeds
        self.replaying = replaying
    }

    func runOnItsThread() async -> ExplorationReport {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                // Named from inside: on Linux a thread starts with its creator's name (a Dispatch worker's, often),
                // and a name set before `start()` does not reach the kernel, where a crash backtrace reads it.
                nameThisThread("explorer")
                continuation.resume(returning: self.run())
            }
            thread.start()
        }
    }

    func run() -> ExplorationReport {
        var steps = 0
        var allowed: [String: Int] = [:]
        var distinct = Set<Int>()
        let systematic = strategy.isSystematic
        var choices = replaying ?? []
        var left = ExplorationReport.TasksLeft()
        func finished(_ report: ExplorationReport) -> ExplorationReport {
            var report = report
            report.tasksLeftRunning = left
            return report
        }
        for (index, seed) in seeds.enumerated() {
            let outcome = runSchedule(index: index, seed: seed, choices: choices)
            if !outcome.leftRunning.isEmpty {
                if left.schedules == 0 { (left.firstSchedule, left.tasks) = (index, outcome.leftRunning) }
                left.schedules += 1
            }
            steps += outcome.steps
            allowed.merge(outcome.allowed, uniquingKeysWith: +)
            distinct.insert(outcome.fingerprint.finalize())
            if let kind = outcome.failure {
                let failure = ExplorationFailure(
                    kind: kind, schedule: index, of: seeds.count, seed: seed,
                    choices: outcome.choicesToReplay, strategy: strategy,
                    trace: outcome.trace.render(names: outcome.taskNames))
                return finished(
                    ExplorationReport(
                        schedules: index + 1, steps: steps, failure: failure, allowedOutside: allowed,
                        distinctSchedules: distinct.count, exhausted: nil))
            }
            guard systematic, replaying == nil else { continue }
            guard let next = outcome.nextSchedule else {
                return finished(
                    ExplorationReport(
                        schedules: index + 1, steps: steps, failure: nil, allowedOutside: allowed,
                        distinctSchedules: distinct.count, exhausted: true))
            }
            choices = next
        }
        return finished(
            ExplorationReport(
                schedules: seeds.count, steps: steps, failure: nil, allowedOutside: allowed,
                distinctSchedules: distinct.count, exhausted: !systematic || replaying != nil ? nil : false))
    }

    struct Outcome {
        var steps = 0
        var failure: ExplorationFailure.Kind?
        var allowed: [String: Int] = [:]
        var trace = ScheduleTrace()
        /// The ranks of the jobs taken (0: the one ready first), hashed as they come: what tells schedules apart, kept
        /// in a hasher rather than an array so that a schedule allocates nothing more for it.
        var fingerprint = Hasher()
        /// A systematic schedule's choices that replay it, and the choices of the next schedule of its walk (nil:
        /// none is left).
        var choicesToReplay: [Int] = []
        var nextSchedule: [Int]?
        /// The names of the schedule's named tasks by number, read when it failed.
        var taskNames: [Int: String] = [:]
        /// The tasks that still had work queued when the body returned and the schedule passed.
        var leftRunning: [String] = []
    }

    /// How the body's task ended.
    enum BodyEnd: Sendable {
        case returned
        case threw(String)
    }

    func runSchedule(index: Int, seed: UInt64, choices: [Int] = []) -> Outcome {
        let scheduler = ExploringScheduler(name: "explorer", strategy: strategy, seed: seed, choices: choices)
        let exploration = Exploration(scheduler: scheduler, index: index, seed: seed)
        let end = Locked<BodyEnd?>(nil)
        // If the process dies in this schedule, a signal handler prints its seed and last steps (CrashNote).
        let crashSlot = CrashNote.claim(index: index, of: seeds.count, seed: seed, strategy: strategy)
        defer { crashSlot.map(CrashNote.release) }
        let crashMessage = RuntimeCrashMessage()
        defer { crashMessage.dropAdditions() }  // and after each job, in `drive`
        var outcome = Outcome(trace: ScheduleTrace(crashSlot: crashSlot))
        scheduler.driving {
            // The test's `Task { }` and other global jobs run as the schedule's jobs until it ends; then what is
            // left is dropped (the capture is gone by then, so nothing more arrives into a dead schedule).
            GlobalJobCapture.capturing(exploration) {
                let bodyTask = Task(executorPreference: exploration.taskExecutor) { [body] in
                    do {
                        try await body(exploration)
                        end.withLock { $0 = .returned }
                    } catch {
                        end.withLock { $0 = .threw(String(describing: error)) }
                    }
                }
                outcome.failure = drive(scheduler, until: end, into: &outcome, crashMessage)
                (outcome.choicesToReplay, outcome.nextSchedule) = (
                    scheduler.scheduleChooser.choicesToReplay, scheduler.scheduleChooser.nextSchedule
                )
                if outcome.failure == nil { outcome.leftRunning = scheduler.tasksWithWorkLeft() }
                if outcome.failure != nil {
                    outcome.taskNames = scheduler.taskNames()
                    bodyTask.cancel()
                }
                windDown(scheduler)
            }
            _ = scheduler.dropPending()
        }
        return outcome
    }

    /// Finishes what the schedule left, out of the exploration: after a failure the body is cancelled, then every
    /// job left (tasks left behind, sleepers, what a cancel wakes) runs first in first out, with time moving to each
    /// deadline, unrecorded, for at most `windDownSteps` jobs. A task that ends frees its memory; a task that waits
    /// on a continuation nobody will resume cannot be freed by anyone, and stays.
    private func windDown(_ scheduler: ExploringScheduler) {
        var steps = 0
        while steps < Self.windDownSteps, let entry = scheduler.takeFirst() {
            _ = scheduler.perform(entry)
            steps += 1
        }
    }

    /// At most this many jobs run while a schedule winds down (a task that never ends is dropped after).
    static let windDownSteps = 1_000

    /// Runs the schedule's jobs until the body has finished and nothing is ready, or it fails; returns the failure.
    private func drive(
        _ scheduler: ExploringScheduler, until end: Locked<BodyEnd?>, into outcome: inout Outcome,
        _ crashMessage: RuntimeCrashMessage
    ) -> ExplorationFailure.Kind? {
        while true {
            let finished = end.withLock { $0 }
            if case .threw(let message) = finished { return .threw(message) }
            let (count, earliest) = scheduler.pendingSummary()
            if count == 0 {
                if finished != nil { return nil }
                if scheduler.waitForArrival(timeout: settings.outsideWait) { continue }
                return .deadlock
            }
            // Once the body has returned, what is ready still runs (tasks it left behind), but time stands still.
            if finished != nil, let earliest, earliest > scheduler.now { return nil }
            if outcome.steps >= settings.maxSteps { return .stepLimit(settings.maxSteps) }
            let before = scheduler.now
            guard let entry = scheduler.takeNext(dueBy: .distantFuture) else { continue }
            if scheduler.now > before { outcome.trace.record(.clock(from: before, to: scheduler.now)) }
            var shown: String?
            if let place = entry.origin {
                guard settings.allowedOutside.contains(where: { place.contains($0) }) else { return .outside(place) }
                outcome.allowed[place, default: 0] += 1
                shown = place + " (allowed)"
            }
            outcome.steps += 1
            outcome.fingerprint.combine(entry.rank)
            let step = outcome.steps
            if scheduler.perform(entry) {
                outcome.trace.record(
                    .step(
                        step, task: entry.note, what: Self.what(entry), chosen: entry.rank, of: entry.of,
                        outside: shown))
            } else {
                outcome.trace.record(.skipped(step, task: entry.note))
            }
            crashMessage.dropAdditions()
        }
    }

    private static func what(_ taken: VirtualTimeEngine.Taken) -> ScheduleTrace.What {
        if taken.work.isTick { return .tick }
        switch taken.carried {
        case .taskJob: return .task
        case .actorJob: return .actor
        case .runtimeJob: return .runtime
        case .closure: return taken.work.isTimed ? .timer : .work
        }
    }
}
