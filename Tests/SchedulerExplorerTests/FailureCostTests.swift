import CSwiftRuntimeHooks
import Foundation
import SchedulerExplorer
import SchedulerKit
import Synchronization
import Testing

/// What a failed schedule leaves: the tasks it had started are finished out of the exploration (the body cancelled,
/// sleepers woken, first in first out), so that thousands of failures do not pile up suspended tasks.
@Suite struct FailureCostTests {
    /// A body that leaves `count` tasks asleep for an hour on the exploration's clock (each counts itself when it
    /// ends), and then fails or returns.
    static func leaving(_ count: Int, finished: EndCount, fails: Bool) -> @Sendable (Exploration) async throws -> Void {
        { exploration in
            for _ in 0..<count {
                Task {
                    try? await exploration.clock.sleep(for: .seconds(3_600))
                    finished.increment()
                }
            }
            await Task.yield()
            if fails { try check(false, "fails on purpose") }
        }
    }

    @Test("Tasks a failed schedule left asleep are finished, not left suspended", arguments: [true, false])
    func leftTasksAreFinished(fails: Bool) async {
        let finished = EndCount()
        for _ in 0..<20 {
            let body = Self.leaving(10, finished: finished, fails: fails)
            let report = await explore(schedules: 1, strategy: .random, body)
            #expect((report.failure != nil) == fails)
        }
        #expect(finished.value == 200, "\(finished.value) of the 200 tasks left behind ended")
    }

    @Test("A body cancelled by its failure ends its sleeping children")
    func cancelledBodyEndsItsChildren() async {
        let finished = EndCount()
        let report = await explore(schedules: 1, strategy: .firstInFirstOut, settings: ExplorationSettings(maxSteps: 5))
        {
            exploration in
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        try? await exploration.clock.sleep(for: .seconds(3_600))
                        finished.increment()
                    }
                }
                // Never returns within the step limit: the schedule fails and the body is cancelled.
                while !Task.isCancelled { await Task.yield() }
            }
        }
        #expect(report.failure != nil)
        #expect(finished.value == 10)
    }

    /// Memory per failed schedule over many failures, measured on request (`SCHEDULERKIT_FAILURE_COST=1`): the
    /// process's resident memory before and after, per failure (an upper bound: freed memory the allocator keeps
    /// counts too). Figures go to `Docs/Exploring.md`.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["SCHEDULERKIT_FAILURE_COST"] != nil))
    func memoryPerFailedSchedule() async {
        let finished = EndCount()
        let failures = 10_000
        let body = Self.leaving(10, finished: finished, fails: true)
        for _ in 0..<100 { _ = await explore(schedules: 1, body) }
        let before = Self.residentBytes()
        let started = ContinuousClock.now
        for _ in 0..<failures { _ = await explore(schedules: 1, body) }
        let after = Self.residentBytes()
        let perFailure = (Double(after) - Double(before)) / Double(failures)
        print(
            "failure cost: \(failures) failed schedules, each leaving 10 sleeping tasks: \(Int(perFailure)) bytes kept per failure, \(ContinuousClock.now - started) in all"
        )
        #expect(perFailure <= 10_240, "\(perFailure) bytes kept per failed schedule")
    }

    /// A body whose 10 children each wait on a continuation they drop (checked, or unsafe, which the runtime does not
    /// report): each schedule fails as a deadlock after a 10 ms wait, and leaves its 11 tasks suspended for good.
    static func droppingContinuations(checked: Bool) -> @Sendable (Exploration) async throws -> Void {
        { _ in
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        if checked {
                            await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
                        } else {
                            await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
                        }
                    }
                }
            }
        }
    }

    /// The runtime appends each report of a dropped `CheckedContinuation` to its crash message and never frees the
    /// previous copy; a schedule puts the message back as it found it, so its reports cost it once, not once for
    /// every report before them in the process.
    @Test func aScheduleLeavesTheRuntimesCrashMessageAsItFoundIt() async {
        let before = schedulerkit_runtime_crash_message()
        let report = await explore(
            schedules: 3, settings: ExplorationSettings(outsideWait: .milliseconds(10)),
            Self.droppingContinuations(checked: true))
        #expect(report.failure.map { "\($0.reason)".contains("deadlock") } ?? false, "\(report)")
        #expect(schedulerkit_runtime_crash_message() == before)
    }

    /// What a failed schedule that drops 10 checked continuations costs beyond the same schedule with unsafe ones
    /// (which the runtime does not report), measured on request: memory (resident, per schedule) and time.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["SCHEDULERKIT_FAILURE_COST"] != nil))
    func costOfDroppedContinuations() async {
        let settings = ExplorationSettings(outsideWait: .milliseconds(10))
        func measure(checked: Bool) async -> (bytes: Double, time: Duration) {
            let body = Self.droppingContinuations(checked: checked)
            for _ in 0..<20 { _ = await explore(schedules: 1, settings: settings, body) }
            let schedules = 1_000
            let before = Self.residentBytes()
            let started = ContinuousClock.now
            for _ in 0..<schedules { _ = await explore(schedules: 1, settings: settings, body) }
            let time = (ContinuousClock.now - started) / schedules
            return ((Double(Self.residentBytes()) - Double(before)) / Double(schedules), time)
        }
        let unsafe = await measure(checked: false)
        let checked = await measure(checked: true)
        print(
            "failure cost: a deadlocked schedule leaving 10 continuations: unsafe \(Int(unsafe.bytes)) bytes, \(unsafe.time); checked \(Int(checked.bytes)) bytes, \(checked.time); the checked ones' reports cost \(Int(checked.bytes - unsafe.bytes)) bytes and \(checked.time - unsafe.time) a schedule"
        )
        #expect(checked.bytes - unsafe.bytes <= 10_240, "\(checked.bytes - unsafe.bytes) bytes a schedule")
    }

    /// How long a deadlock takes to report with the default settings (measured on request).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["SCHEDULERKIT_FAILURE_COST"] != nil))
    func deadlockTime() async {
        var times: [Duration] = []
        for _ in 0..<20 {
            let started = ContinuousClock.now
            let report = await explore(schedules: 1) { _ in
                await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
            }
            times.append(ContinuousClock.now - started)
            #expect(report.failure.map { "\($0.reason)".contains("deadlock") } ?? false, "\(report)")
        }
        times.sort()
        print("failure cost: a deadlock is reported in \(times[10]) (median of 20; \(times[0])–\(times[19]))")
    }

    /// VmRSS of /proc/self/status, in bytes.
    static func residentBytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1_024
    }
}

/// How many of the tasks left behind ended.
final class EndCount: Sendable {
    private let count = Atomic<Int>(0)
    func increment() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}
