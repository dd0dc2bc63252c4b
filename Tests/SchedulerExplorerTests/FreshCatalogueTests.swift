import ConcurrencyExtras
import Foundation
import SchedulerExplorer
import SchedulerKit
import Testing

#if canImport(Clocks)
    import Clocks
#endif

/// The fresh catalogue (`FreshCatalogue/`): 21 bugs shaped like app and library code, each with its correction,
/// written by a helper that had read neither the explorer nor its own catalogue (`AsyncBugs.swift`). Every bug must be
/// found and replay; no correction may fail. `SCHEDULERKIT_FRESH_TABLE=1` prints the table in `Docs/Exploring.md`:
/// every strategy beside `withMainSerialExecutor` and the real global executor.
@Suite(.serialized) struct FreshCatalogueTests {
    static let names = AppBugs.all.map(\.name)

    /// Bodies where a task that prefers no executor yields inside a default actor it entered in place: on Swift 6.2+
    /// `Task.yield()` enqueues on `Task.currentExecutor`, which there is the default executor, and that goes to
    /// Dispatch without the global-enqueue hook; the task's resumption then comes back from a Dispatch thread, as work
    /// from outside, at a real-time moment (`Docs/Exploring.md`, "Where the explorer can switch"). The explorer's
    /// limit, not the code's: marked known until a hook reaches it.
    static let yieldsPastTheHook: Set<String> = [
        "cacheWithoutInFlightDedupe", "workerBatchStrandsLateSubmissions", "uploaderMarksIdleBeforeLastUpload",
    ]
    static func bug(_ name: String) -> AppBugCase { AppBugs.all.first { $0.name == name }! }

    /// Random finds every bug within 2 000 schedules, and its seed replays the same trace 20 of 20.
    @Test(arguments: names) func randomFindsEveryBugAndItsSeedReplays(_ name: String) async throws {
        let bug = Self.bug(name)
        let body: @Sendable (Exploration) async throws -> Void = { try await bug.buggy($0.clock) }
        let report = await explore(schedules: 2_000, strategy: .random, seed: 1, body)
        let failure = try #require(report.failure, "\(name): not found in 2 000 random schedules")
        var identical = 0
        for _ in 0..<20 {
            let again = await replay(seed: failure.seed, strategy: .random, body)
            if again.failure?.trace == failure.trace { identical += 1 }
        }
        withKnownIssue("a yield past the hook arrives from outside at a real-time moment", isIntermittent: true) {
            #expect(identical == 20, "\(name): \(identical) of 20 replays gave the same trace")
        } when: {
            Self.yieldsPastTheHook.contains(name)
        }
    }

    /// No correction fails in 200 schedules of random or PCT (the table runs 2 000 of each).
    @Test(arguments: names) func noCorrectionFails(_ name: String) async {
        let bug = Self.bug(name)
        for strategy in [ExplorationStrategy.random, .pct(depth: 3, steps: 100)] {
            let report = await explore(schedules: 200, strategy: strategy, seed: 2) { try await bug.fixed($0.clock) }
            withKnownIssue("a yield past the hook arrives from outside", isIntermittent: true) {
                #expect(report.failure == nil, "\(name) under \(strategy): \(report)")
            } when: {
                Self.yieldsPastTheHook.contains(name)
            }
        }
    }

    // MARK: The table (SCHEDULERKIT_FRESH_TABLE=1)

    static let tableEnabled = ProcessInfo.processInfo.environment["SCHEDULERKIT_FRESH_TABLE"] == "1"

    /// Where a strategy first failed the bug ("found at N") and how a correction fared.
    static func explorerCell(_ bug: AppBugCase, _ strategy: ExplorationStrategy, schedules: Int) async -> String {
        let buggy = await explore(schedules: schedules, strategy: strategy, seed: 1) { try await bug.buggy($0.clock) }
        let fixed = await explore(schedules: schedules, strategy: strategy, seed: 2) { try await bug.fixed($0.clock) }
        // A failure that is the explorer's limit (a job from outside), not the bug, is shown as such.
        let found = buggy.failure.map { "\($0.schedule + 1)" + (Self.isOutside($0) ? " (outside)" : "") } ?? "—"
        let fix = fixed.failure.map { Self.isOutside($0) ? " (fix: outside)" : " (fix FAILED)" } ?? ""
        return found + fix
    }

    static func isOutside(_ failure: ExplorationFailure) -> Bool { failure.reason.contains("outside it") }

    /// Runs `body` with a time-out (a hang is a failure, and the hung task is left behind); true if it returned.
    static func passes(within limit: Duration, _ body: @escaping @Sendable () async throws -> Void) async -> Bool {
        let claimed = Locked(false)
        let claim: @Sendable () -> Bool = {
            claimed.withLock { done in
                defer { done = true }
                return !done
            }
        }
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            Task {
                let passed = (try? await body()) != nil
                if claim() { continuation.resume(returning: passed) }
            }
            Task {
                try? await Task.sleep(for: limit)
                if claim() { continuation.resume(returning: false) }
            }
        }
    }

    /// The first of `runs` runs in which `body` failed, or nil.
    static func firstFailure(runs: Int, _ body: @escaping @Sendable () async throws -> Void) async -> Int? {
        for run in 1...runs where !(await passes(within: .seconds(1), body)) { return run }
        return nil
    }

    @MainActor static func mainSerialCell(_ bug: AppBugCase, runs: Int) async -> String {
        #if canImport(Clocks)
            var found: Int?
            var fixFailed = false
            await withMainSerialExecutor {
                found = await firstFailure(runs: runs) { try await bug.buggy(ImmediateClock()) }
                fixFailed = await firstFailure(runs: runs) { try await bug.fixed(ImmediateClock()) } != nil
            }
            return (found.map(String.init) ?? "—") + (fixFailed ? " (fix FAILED)" : "")
        #else
            return "n/a (swift-clocks trait off)"
        #endif
    }

    static func globalCell(_ bug: AppBugCase, runs: Int) async -> String {
        let found = await firstFailure(runs: runs) { try await bug.buggy(ContinuousClock()) }
        let fixFailed = await firstFailure(runs: runs) { try await bug.fixed(ContinuousClock()) } != nil
        return (found.map(String.init) ?? "—") + (fixFailed ? " (fix FAILED)" : "")
    }

    @Test(.enabled(if: tableEnabled)) func theTable() async {
        var lines = [
            "| bug | FIFO | random | PCT | exhaustive ≤ 2 | `withMainSerialExecutor` | global executor |",
            "|---|---|---|---|---|---|---|",
        ]
        for bug in AppBugs.all {
            FileHandle.standardError.write(Data("table: \(bug.name)\n".utf8))
            let fifo = await Self.explorerCell(bug, .firstInFirstOut, schedules: 1)
            let random = await Self.explorerCell(bug, .random, schedules: 2_000)
            let pct = await Self.explorerCell(bug, .pct(depth: 3, steps: 100), schedules: 2_000)
            let exhaustive = await Self.explorerCell(bug, .exhaustive(preemptions: 2), schedules: 2_000)
            // After every exploration of this bug has removed its interceptor: `withMainSerialExecutor` saves only
            // whether a hook was installed, and would leave its own in place of one it found.
            let mainSerial = await Self.mainSerialCell(bug, runs: 1_000)

            FileHandle.standardError.write(Data("table: \(bug.name) explorer done\n".utf8))
            let global = await Self.globalCell(bug, runs: 200)
            let line = "| \(bug.name) | \(fifo) | \(random) | \(pct) | \(exhaustive) | \(mainSerial) | \(global) |"
            print(line)
            lines.append(line)
        }
        print("fresh catalogue table:\n" + lines.joined(separator: "\n"))
    }
}
