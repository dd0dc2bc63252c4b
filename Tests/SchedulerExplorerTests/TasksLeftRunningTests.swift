import SchedulerExplorer
import SchedulerKit
import Testing

/// A task still waiting when the body returns is named in the report: its work is dropped with the schedule, so what
/// it would have done was never checked.
@Suite struct TasksLeftRunningTests {
    @Test func aSleeperTheBodyDidNotWaitForIsNamed() async {
        let report = await explore(schedules: 20, strategy: .random, seed: 3) { exploration in
            let clock = exploration.clock
            Task(name: "uploader") { try? await clock.sleep(for: .seconds(1)) }
            await Task.yield()
        }
        #expect(report.failure == nil, "\(report)")
        #expect(report.tasksLeftRunning.schedules == 20, "\(report)")
        #expect(
            report.tasksLeftRunning.tasks.contains { $0.contains("'uploader'") && $0.contains("asleep, due in") },
            "\(report.tasksLeftRunning.tasks)")
        #expect(report.description.contains("left tasks running when the body returned"), "\(report)")
    }

    @Test func aBodyThatWaitsForItsTasksLeavesNone() async {
        let report = await explore(schedules: 20, strategy: .random, seed: 3) { exploration in
            let clock = exploration.clock
            await Task(name: "uploader") { try? await clock.sleep(for: .seconds(1)) }.value
        }
        #expect(report.failure == nil, "\(report)")
        #expect(report.tasksLeftRunning.isEmpty, "\(report.tasksLeftRunning)")
    }

    /// Once the body has returned, the jobs already ready still run, also while a sleeper is pending beside them
    /// (random, seeded: in most schedules the sleeper fell asleep before the body returned), and within the schedule:
    /// none is left for the wind-down, which would run it unrecorded.
    @Test func readyJobsStillRunAfterTheBodyBesideASleeper() async {
        let ran = Locked(0)
        let report = await explore(schedules: 20, strategy: .random, seed: 3) { exploration in
            let clock = exploration.clock
            Task(name: "uploader") { try? await clock.sleep(for: .seconds(1)) }
            // Yields enough that in most schedules the uploader is asleep before the loggers exist.
            for _ in 0..<5 { await Task.yield() }
            // Several, so that some wait in the ready list while the first runs; each counts only after a yield, so
            // that what is ready once the body has returned includes their later jobs.
            for _ in 0..<3 {
                Task(name: "logger") {
                    await Task.yield()
                    ran.withLock { $0 += 1 }
                }
            }
        }
        #expect(report.failure == nil, "\(report)")
        let count = ran.withLock { $0 }
        #expect(count == 60, "\(count) of the 60 ready tasks (3 in each of 20 schedules) ran")
        // What was left when the schedule stopped still runs after it, unrecorded; so a schedule that stopped while
        // jobs were ready shows only here: they would be named as left running.
        let readyLeft = report.tasksLeftRunning.tasks.filter { $0.hasSuffix("ready to run") }
        #expect(readyLeft.isEmpty, "the schedule stopped with jobs ready: \(readyLeft)")
    }
}
