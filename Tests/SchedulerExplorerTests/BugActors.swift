import SchedulerExplorer

// The actors the catalogue's programs share state through: default actors, so that under an exploration their jobs
// run on the exploration's executor, preferred by the task that calls them.

actor Bank {
    private(set) var balance: Int
    init(balance: Int) { self.balance = balance }

    func withdraw(_ amount: Int, auditedBy auditor: Auditor) async -> Bool {
        guard balance >= amount else { return false }
        await auditor.record(amount)  // the bug: the check above no longer holds after this await
        balance -= amount
        return true
    }
}

actor Auditor {
    private(set) var entries: [Int] = []
    func record(_ amount: Int) { entries.append(amount) }
}

actor Store {
    private(set) var value = 0
    func read() -> Int { value }
    func write(_ newValue: Int) { value = newValue }

    /// The bug: a read and a write as two calls, with another task free to write in between.
    nonisolated func increment() async {
        let current = await read()
        await write(current + 1)
    }
}

actor Request {
    private var isOpen = true
    private(set) var resumes = 0

    /// Stands for resuming the request's continuation once: a second resume would trap, so it is counted instead.
    func finish(by finisher: String) async {
        guard isOpen else { return }
        await Task.yield()  // stands for logging who finished it; the check above no longer holds after it
        isOpen = false
        resumes += 1
    }
}

actor Gate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func waitUntilOpen() async {
        if isOpen { return }
        await Task.yield()  // stands for logging the wait: the check and the registration are no longer one step
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters = []
    }
}

actor Slots {
    private var reserved = 0
    private var committed = 0
    func reserve() { reserved += 1 }
    func commit() { committed += 1 }
    var leaked: Int { reserved - committed }
}

actor EventLog {
    private(set) var events: [String] = []
    func record(_ event: String) { events.append(event) }
}

/// A wake-up service: each sleeper takes a number and is resumed when a task sleeping for it rings that number.
actor Alarms {
    private var next = 0
    private var sleepers: [Int: [CheckedContinuation<Void, Never>]] = [:]
    private(set) var early: [Duration] = []

    func sleep(for duration: Duration, _ environment: BugEnvironment) async throws {
        let number = next
        await Task.yield()  // stands for logging the request: another sleeper can take the same number meanwhile
        next = number + 1
        _ = environment.spawn {
            try? await environment.sleep(duration)
            await self.ring(number)
        }
        await withCheckedContinuation { sleepers[number, default: []].append($0) }
    }

    func ring(_ number: Int) {
        for sleeper in sleepers.removeValue(forKey: number) ?? [] { sleeper.resume() }
    }

    func wokeEarly(_ slept: Duration) { early.append(slept) }
}
