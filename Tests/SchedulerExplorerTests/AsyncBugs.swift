import SchedulerExplorer
import SchedulerKit

/// Where a bug's program runs: inside an exploration, or on Swift's global executor for the baseline. The program
/// sleeps, spawns and reads the time only through it, so the same code runs both ways.
struct BugEnvironment: Sendable {
    let sleep: @Sendable (Duration) async throws -> Void
    /// An unstructured task that stays where the program runs.
    let spawn: @Sendable (@escaping @Sendable () async -> Void) -> Task<Void, Never>
    /// Elapsed time since the program started.
    let elapsed: @Sendable () -> Duration

    static func exploring(_ exploration: Exploration) -> BugEnvironment {
        let origin = exploration.clock.now
        return BugEnvironment(
            sleep: { try await exploration.clock.sleep(for: $0) },
            spawn: { work in Task(executorPreference: exploration.taskExecutor) { await work() } },
            elapsed: { origin.duration(to: exploration.clock.now) })
    }

    static func global() -> BugEnvironment {
        let clock = ContinuousClock()
        let origin = clock.now
        return BugEnvironment(
            sleep: { try await clock.sleep(for: $0) }, spawn: { work in Task { await work() } },
            elapsed: { origin.duration(to: clock.now) })
    }
}

/// A classic async bug as a small program: it throws (a failed `check`) when the bad interleaving happened.
struct AsyncBug: Sendable, CustomStringConvertible {
    let name: String
    let program: @Sendable (BugEnvironment) async throws -> Void
    var description: String { name }

    /// The catalogue `Docs/Exploring.md` quotes.
    static let all: [AsyncBug] = [
        reentrancy, lostUpdate, childOrder, doubleResume, missingResume, cancelBetweenSteps, timerRacedByCancel,
        sleeperWokenEarly,
    ]

    /// Let the other tasks go first: a program's "slightly later" request.
    static func yield(_ times: Int) async {
        for _ in 0..<times { await Task.yield() }
    }

    // MARK: 1. Actor reentrancy across an await

    /// Two withdrawals of 70 from 100: the balance is checked, an audit is awaited, then the amount is taken. Across
    /// the await another withdrawal passes the same check.
    static let reentrancy = AsyncBug(name: "actor reentrancy across an await") { _ in
        let bank = Bank(balance: 100)
        let auditor = Auditor()
        async let first = bank.withdraw(70, auditedBy: auditor)
        async let second: Bool = {
            await yield(4)
            return await bank.withdraw(70, auditedBy: auditor)
        }()
        _ = await (first, second)
        let balance = await bank.balance
        try check(balance >= 0, "overdrawn: the balance is \(balance)")
    }

    // MARK: 2. Lost update between two tasks

    /// Two increments of a stored counter, each a read and a write through separate actor calls.
    static let lostUpdate = AsyncBug(name: "lost update between two tasks") { _ in
        let store = Store()
        async let first: Void = store.increment()
        async let second: Void = {
            await yield(3)
            await store.increment()
        }()
        _ = await (first, second)
        let value = await store.value
        try check(value == 2, "an update was lost: the counter is \(value), not 2")
    }

    // MARK: 3. Order assumed between child tasks

    /// A task group whose results are assumed to come back in the order the children were added.
    static let childOrder = AsyncBug(name: "order assumed between child tasks") { _ in
        let order = await withTaskGroup(of: Int.self) { group in
            group.addTask {
                await yield(1)
                return 1
            }
            group.addTask {
                await yield(1)
                return 2
            }
            var order: [Int] = []
            for await value in group { order.append(value) }
            return order
        }
        try check(order == [1, 2], "children finished as \(order), the code assumed [1, 2]")
    }

    // MARK: 4. Double resume

    /// A reply and a time-out both finish one request; each checks that the request is still open, awaits its log
    /// entry, then closes it: across the await both pass the check.
    static let doubleResume = AsyncBug(name: "double resume") { environment in
        let request = Request()
        let reply = environment.spawn { await request.finish(by: "reply") }
        let timeout = environment.spawn {
            await yield(4)
            await request.finish(by: "time-out")
        }
        await reply.value
        await timeout.value
        let resumes = await request.resumes
        try check(resumes <= 1, "the request was resumed \(resumes) times")
    }

    // MARK: 5. Missing resume

    /// A waiter checks that a gate is shut, awaits a log entry, then registers its continuation: an opening in
    /// between finds nobody to resume, and the waiter waits for ever.
    static let missingResume = AsyncBug(name: "missing resume") { environment in
        let gate = Gate()
        let opener = environment.spawn {
            await yield(6)
            await gate.open()
        }
        await gate.waitUntilOpen()
        await opener.value
    }

    // MARK: 6. Cancellation between two steps

    /// A job reserves a slot, then commits it; cancelled in between, it returns without releasing the slot.
    static let cancelBetweenSteps = AsyncBug(name: "cancellation between two steps") { environment in
        let slots = Slots()
        let job = environment.spawn {
            await slots.reserve()
            await Task.yield()
            if Task.isCancelled { return }  // the bug: the reserved slot is never released
            await slots.commit()
        }
        await yield(5)
        job.cancel()
        await job.value
        let leaked = await slots.leaked
        try check(leaked == 0, "\(leaked) slot reserved and never committed or released")
    }

    // MARK: 7. A timer raced by cancel

    /// A one-shot timer is cancelled at its own deadline; the action assumes that a cancel before it runs stops it,
    /// but it never checks after its sleep.
    static let timerRacedByCancel = AsyncBug(name: "a timer raced by cancel") { environment in
        let log = EventLog()
        let timer = environment.spawn {
            do {
                try await environment.sleep(.milliseconds(1))
            } catch { return }
            await log.record("fire")  // the bug: no `Task.isCancelled` check here
        }
        let canceller = environment.spawn {
            try? await environment.sleep(.milliseconds(1))
            await log.record("cancel")
        }
        await canceller.value
        timer.cancel()
        await timer.value
        let events = await log.events
        try check(events != ["cancel", "fire"], "the timer fired after it was cancelled: \(events)")
    }

    // MARK: 8. A sleeper woken early

    /// Two sleepers register with a wake-up service under a number each takes across an await: both take the same
    /// number, and the earlier wake-up resumes the later sleeper too.
    static let sleeperWokenEarly = AsyncBug(name: "a sleeper woken early") { environment in
        let alarms = Alarms()
        let early = environment.spawn { try? await alarms.sleep(for: .milliseconds(1), environment) }
        let late = environment.spawn {
            await yield(6)
            let start = environment.elapsed()
            try? await alarms.sleep(for: .milliseconds(5), environment)
            let slept = environment.elapsed() - start
            if slept < .milliseconds(5) { await alarms.wokeEarly(slept) }
        }
        await early.value
        await late.value
        let wokeEarly = await alarms.early
        try check(wokeEarly.isEmpty, "a sleeper of 5 ms woke after \(wokeEarly)")
    }
}
