import SchedulerKit

/// CL4, CL5 and CL8: what a virtual clock promises a test that drives it. Sleepers run on the driver's executor (or on a
/// serial one of the kit's), so the order in which they run is the order in which the clock woke them.
enum VirtualClockRules {
    static let tiesInOrder = ConformanceRule.clock(
        id: .cl4,
        statement: "Sleepers with the same deadline wake in the order they went to sleep (50 sleepers, one advance).",
        why:
            "A test that schedules two things for the same moment expects them to happen in the order it wrote them; an order that changes between runs makes a flaky test.",
        catches:
            "postgres-nio's MockClock (by reading: equal-deadline sleepers resumed in an unspecified order); a clock that wakes ties last-in first-out (negative control).",
        kinds: [.virtual]
    ) { clock in
        let room = SleeperRoom(clock)
        defer { room.close() }
        let count = 50
        let order = Shared<[Int]>([])
        for index in 0..<count {
            room.sleeper(until: .milliseconds(10)) { _ in order.append(index) }
            try await room.settle(index + 1)  // one at a time, so "the order they went to sleep" is known
        }
        await room.advance(by: .milliseconds(20))
        try await poll("every sleeper to wake", timeout: .seconds(10)) { order.value.count == count }
        let woke = order.value
        if let first = woke.indices.first(where: { woke[$0] != $0 }) {
            throw RuleFailure(
                "sleeper \(woke[first]) woke \(first + 1)\(ordinalSuffix(first + 1)), where sleeper \(first) went to sleep first (order: \(woke.prefix(first + 3).map(String.init).joined(separator: " ")) …)"
            )
        }
        return ""
    }

    static let wakesAtDeadline = ConformanceRule.clock(
        id: .cl5,
        statement:
            "One advance wakes every sleeper due by its target and no other, and each reads now equal to its own deadline as it wakes (60 sleepers due within the advance, 20 after it, one of those 1 ns after its target).",
        why:
            "A test advances a virtual clock to see what happened by then: a sleeper left asleep hides work that was due, and one that reads the advance's target instead of its deadline computes the wrong next deadline (a repeating timer drifts).",
        catches:
            "swift-clocks' TestClock before it yielded between sleepers (woken sleepers all read the final time); a clock that sets now to the target before it wakes anyone (negative control).",
        kinds: [.virtual]
    ) { clock in
        let room = SleeperRoom(clock)
        defer { room.close() }
        var generator = SystemRandomNumberGenerator()
        let due = (0..<60).map { _ in Duration.microseconds(Int.random(in: 1_000...100_000, using: &generator)) }
        // Forced: one sleeper is due 1 ns after the target, the nearest a clock that wakes early could get.
        let later =
            [.milliseconds(100) + .nanoseconds(1)]
            + (0..<19).map { _ in Duration.microseconds(Int.random(in: 150_000...250_000, using: &generator)) }
        let woken = Shared<[(deadline: Duration, now: Duration)]>([])
        for deadline in due + later {
            room.sleeper(until: deadline) { now in woken.update { $0.append((deadline, now)) } }
        }
        try await room.settle(due.count + later.count)
        await room.advance(by: .milliseconds(100))
        try await poll("the \(due.count) due sleepers to wake", timeout: .seconds(10)) {
            woken.value.count >= due.count
        }
        try? await Task.sleep(for: .milliseconds(20))  // give a wrongly woken later sleeper time to show
        let first = woken.value
        let early = first.filter { $0.deadline > .milliseconds(100) }.count
        try require(early == 0, "\(early) sleepers due after the advance's target woke in it")
        let off = first.filter { $0.now != $0.deadline }
        if let example = off.first {
            throw RuleFailure(
                "\(off.count) of \(first.count) woken sleepers read a now other than their deadline (one due at \(readable(example.deadline)) read \(readable(example.now)))"
            )
        }
        await room.advance(by: .milliseconds(200))
        try await poll("the later sleepers to wake", timeout: .seconds(10)) {
            woken.value.count == due.count + later.count
        }
        return ""
    }

    static func ordinalSuffix(_ n: Int) -> String {
        if (11...13).contains(n % 100) { return "th" }
        return [1: "st", 2: "nd", 3: "rd"][n % 10] ?? "th"
    }

    static let cancelledSleepLeavesNothing = ConformanceRule.clock(
        id: .cl8,
        statement:
            "A cancelled sleep leaves nothing behind: 10 sleepers until an hour ahead are cancelled and each throws; then running everything the clock still holds (its driver's runUntilIdle) finds nothing, so now stays where it was. n/a where the driver has no runUntilIdle.",
        why:
            "A test that cancels a timeout and then runs its clock to the end reads the time of a wake-up that no longer exists: now jumps an hour, and what the test computes from it is wrong; on a real clock the same leftovers are timers that pile up with every cancelled sleep.",
        catches:
            "A sleep whose cancellation resumes the sleeper but leaves its wake-up queued on the scheduler (fresh mutant 88, SchedulerClock); a clock that keeps a cancelled sleeper's entry (negative control).",
        kinds: [.virtual]
    ) { clock in
        guard let runUntilIdle = clock.driver?.runUntilIdle else { throw CheckNotApplicable() }
        let room = SleeperRoom(clock)
        defer { room.close() }
        let start = clock.now()
        let sleepers = 10
        let threw = Counter()
        let woke = Counter()
        let tasks = (0..<sleepers).map { _ in
            room.sleeper(
                until: start + .seconds(3_600), woke: { _ in woke.increment() }, threw: { _ in threw.increment() })
        }
        try await room.settle(sleepers)
        for task in tasks { task.cancel() }
        await clock.driver?.settle()
        do {
            try await poll("the cancelled sleeps to end", timeout: .seconds(10)) {
                threw.value + woke.value == sleepers
            }
        } catch {
            await room.advance(by: .seconds(3_601))  // release sleepers that ignored the cancellation (CL6's fault)
            throw RuleFailure(
                "\(sleepers - threw.value - woke.value) of \(sleepers) cancelled sleeps did not end within 10 s")
        }
        try require(woke.value == 0, "\(woke.value) of \(sleepers) cancelled sleeps returned normally")
        await runUntilIdle()
        let moved = clock.now() - start
        try require(
            moved == .zero,
            "after \(sleepers) sleeps until an hour ahead were cancelled, running what the clock still held moved now by \(readable(moved)): a cancelled sleep left its wake-up behind"
        )
        return ""
    }
}
