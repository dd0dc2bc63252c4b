import Foundation
import SchedulerExplorer
import Testing

// Docs/Exploring.md's example, on an account whose withdrawal checks and takes in one step, so that every schedule
// passes.

@Suite struct ExploringSnippets {
    @Test func twoWithdrawalsNeverOverdraw() async {
        let report = await explore(schedules: 1_000, strategy: .random) { exploration in
            let account = Account(balance: 100)
            async let a = account.withdraw(70)
            async let b = account.withdraw(70)
            _ = await (a, b)
            let balance = await account.balance
            try check(balance >= 0, "overdrawn: \(balance)")
        }
        #expect(report.failure == nil, "\(report)")
    }
}

/// Docs/Exploring.md, "Schedules in a child process, on request": the exploration runs in an exit test, and the
/// parent reads a crash back as a failure. This scenario never crashes, so the child exits 0 and no note comes back.
@Suite struct CrashInAChildSnippet {
    @Test func anExplorationInAChildProcess() async {
        // snippet: schedules in a child process
        let child = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let report = await explore(schedules: 1_000, strategy: .random) { _ in try await scenario() }
            if report.failure != nil { exit(1) }  // a failure that did not crash: replay it in the parent
        }
        let note = child.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        if let crash = ExplorationFailure(crashNote: note) {
            Issue.record("\(crash)")  // "schedule 5 of 1000 failed (random, seed 0x…): the process died of signal 4 …"
        }
    }
}

/// What `CrashInAChildSnippet` explores: two increments of one actor's counter.
func scenario() async throws {
    let counter = Counter()
    async let a: Void = counter.increment()
    async let b: Void = counter.increment()
    _ = await (a, b)
    try check(await counter.value == 2, "lost an increment")
}

private actor Counter {
    var value = 0
    func increment() { value += 1 }
}

/// Docs/Exploring.md, "Code that sleeps": a retry with back-off that takes its clock, so the exploration's virtual
/// clock drives it (a minute of back-off costs nothing, and each wake-up is a job the strategy orders).
@Suite struct ClockTakingSnippet {
    @Test func aRetryThatTakesItsClockRunsInsideTheExploration() async {
        let report = await explore(schedules: 50, strategy: .random) { exploration in
            let fetcher = Fetcher(clock: exploration.clock, failuresBeforeSuccess: 3)
            let value = try await fetcher.fetch()
            try check(value == 42, "fetched \(value)")
        }
        #expect(report.failure == nil, "\(report)")
    }
}

// snippet: a clock taken, not reached for
/// Retries with back-off. It sleeps on the clock it is given: `ContinuousClock()` in the app, `exploration.clock` in a
/// test, where virtual time drives the sleeps and the strategy orders the wake-ups.
actor Fetcher {
    private let clock: any Clock<Duration>
    private var failuresLeft: Int

    init(clock: any Clock<Duration>, failuresBeforeSuccess: Int) {
        self.clock = clock
        self.failuresLeft = failuresBeforeSuccess
    }

    func fetch() async throws -> Int {
        var backOff = Duration.seconds(1)
        while true {
            if let value = attempt() { return value }
            try await clock.sleep(for: backOff)
            backOff *= 2
        }
    }

    private func attempt() -> Int? {
        guard failuresLeft == 0 else {
            failuresLeft -= 1
            return nil
        }
        return 42
    }
}
// snippet end

private actor Account {
    private(set) var balance: Int
    init(balance: Int) { self.balance = balance }

    func withdraw(_ amount: Int) -> Bool {
        guard balance >= amount else { return false }
        balance -= amount
        return true
    }
}
