import Dispatch
import Foundation
import SchedulerExplorer
import SchedulerKit

/// A body whose two child tasks interleave: orders differ between schedules under `.random`.
@Sendable func twoYieldingChildren(_ exploration: Exploration) async throws {
    async let first: Void = yieldThrice()
    async let second: Void = yieldThrice()
    _ = await (first, second)
}

@Sendable func yieldThrice() async {
    for _ in 0..<3 { await Task.yield() }
}

/// A body that leaves a named task asleep on the exploration's clock for a second.
@Sendable func leavesUploaderAsleep(_ exploration: Exploration) async throws {
    let clock = exploration.clock
    Task(name: "uploader") { try? await clock.sleep(for: .seconds(1)) }
}

// 21: distinctSchedules: "How many of the schedules differed from every other in their choices".
func probeDistinctSchedules() {
    let report = Box<ExplorationReport?>(nil)
    blockOn { report.value = await explore(schedules: 50, strategy: .random, seed: 7, twoYieldingChildren) }
    let r = report.value!
    print("   \(r)")
    verdict(r.failure == nil, "the body passes every schedule")
    verdict(
        r.distinctSchedules > 5,
        "50 random schedules of two children that yield 3 times: \(r.distinctSchedules) distinct")
}

// 22: tasksLeftRunning.firstSchedule: "The first such schedule's index."
func probeTasksLeftFirst() {
    let report = Box<ExplorationReport?>(nil)
    blockOn {
        report.value = await explore(schedules: 5, strategy: .firstInFirstOut, leavesUploaderAsleep)
    }
    let left = report.value!.tasksLeftRunning
    print("   \(report.value!)")
    verdict(left.schedules == 5, "schedules that left tasks running: \(left.schedules) (expected 5)")
    verdict(left.firstSchedule == 0, "the first such schedule: \(left.firstSchedule) (expected 0)")
}

// 23: ExplorationReport.schedules: "Schedules run, the failing one included."
func probeFailureScheduleCount() {
    let report = Box<ExplorationReport?>(nil)
    blockOn {
        report.value = await explore(schedules: 10, strategy: .random) { exploration in
            try check(exploration.index != 2, "schedule 2 fails")
        }
    }
    let r = report.value!
    verdict(r.failure?.schedule == 2, "failing schedule: \(r.failure.map { "\($0.schedule)" } ?? "none")")
    verdict(r.schedules == 3, "report.schedules = \(r.schedules) (expected 3: schedules 0, 1 and the failing 2)")
}

// 24: maxSteps: "Jobs one schedule may run before it fails with stepLimit"; stepLimit: "The schedule ran maxSteps jobs
// without the body finishing".
func probeStepLimit() {
    let report = Box<ExplorationReport?>(nil)
    blockOn {
        report.value = await explore(
            schedules: 1, strategy: .firstInFirstOut, settings: ExplorationSettings(maxSteps: 5)
        ) { _ in
            while !Task.isCancelled { await Task.yield() }
        }
    }
    let r = report.value!
    verdict(r.failure?.kind == .stepLimit(5), "failure: \(r.failure.map { "\($0.kind)" } ?? "none")")
    let traced = r.failure.map { $0.trace.split(separator: "\n").count } ?? 0
    verdict(r.steps == 5 && traced == 5, "steps run with maxSteps 5: \(r.steps), trace lines: \(traced)")
}

// 25: "after a failure the body's task is cancelled, and every job left ... runs first in first out" (wind-down).
func probeWindDownCancels() {
    let sawCancel = Box(false)
    let report = Box<ExplorationReport?>(nil)
    blockOn {
        report.value = await explore(
            schedules: 1, strategy: .firstInFirstOut, settings: ExplorationSettings(maxSteps: 10)
        ) { _ in
            while !Task.isCancelled { await Task.yield() }
            sawCancel.value = true
        }
    }
    verdict(
        report.value!.failure?.kind == .stepLimit(10),
        "failure: \(report.value!.failure.map { "\($0.kind)" } ?? "none")")
    verdict(sawCancel.value, "the failed schedule's body saw its cancellation while winding down: \(sawCancel.value)")
}

// 26: tasksLeftRunning.tasks: "one line each (\"t3 'uploader': asleep, due in 1.0 seconds\")".
func probeLeftSleeperWait() {
    let report = Box<ExplorationReport?>(nil)
    blockOn { report.value = await explore(schedules: 1, strategy: .firstInFirstOut, leavesUploaderAsleep) }
    let lines = report.value!.tasksLeftRunning.tasks
    verdict(
        lines.count == 1 && lines[0].contains("'uploader': asleep, due in 1.0 seconds"),
        "left running: \(lines)")
}

// 27: outsideWait: "By default 100 ms when nothing from outside is allowed ..., and 1 s when something is".
func probeOutsideWaitDefault() {
    let plain = ExplorationSettings().outsideWait
    let allowing = ExplorationSettings(allowedOutside: ["thread 'timer'"]).outsideWait
    verdict(plain == .milliseconds(100), "ExplorationSettings().outsideWait = \(plain)")
    verdict(allowing == .seconds(1), "ExplorationSettings(allowedOutside: [...]).outsideWait = \(allowing)")
    let report = Box<ExplorationReport?>(nil)
    let start = ContinuousClock.now
    blockOn {
        report.value = await explore(schedules: 1, strategy: .firstInFirstOut) { _ in
            await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
        }
    }
    let took = ContinuousClock.now - start
    verdict(report.value!.failure?.kind == .deadlock && took < .milliseconds(600), "a deadlock reported after \(took)")
}

// 28: FreeRunningExplorer.stop(): "Stops the thread after the job it is running, and drops what is still queued."
func probeFreeRunningStop() {
    let explorer = FreeRunningExplorer(strategy: .firstInFirstOut)
    let scheduler = explorer.scheduler
    let started = DispatchSemaphore(value: 0)
    let gate = DispatchSemaphore(value: 0)
    scheduler.schedule {
        started.signal()
        gate.wait()
    }
    started.wait()
    let ran = Box(false)
    let queued = scheduler.schedule { ran.value = true }
    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) { gate.signal() }
    explorer.stop()
    usleep(50_000)
    verdict(!ran.value, "work queued behind the running job ran after stop(): \(ran.value)")
    verdict(
        queued.isCancelled, "its handle after stop(): isCancelled \(queued.isCancelled) (dropped work is cancelled)")
}

// 20: a trace line shows "the strategy's choice among the jobs ready then" as "(2 of 2 ready)" (Docs/Exploring.md).
func probeTraceChoice() {
    let report = Box<ExplorationReport?>(nil)
    blockOn {
        report.value = await explore(schedules: 1, strategy: .firstInFirstOut) { exploration in
            try await twoYieldingChildren(exploration)
            try check(false, "every schedule fails, so that its trace is printed")
        }
    }
    let trace = report.value!.failure!.trace
    print(trace)
    var choices: [(Int, Int)] = []
    let pattern = try! NSRegularExpression(pattern: "\\((\\d+) of (\\d+) ready\\)")
    for match in pattern.matches(in: trace, range: NSRange(trace.startIndex..., in: trace)) {
        let chosen = Int((trace as NSString).substring(with: match.range(at: 1)))!
        let of = Int((trace as NSString).substring(with: match.range(at: 2)))!
        choices.append((chosen, of))
    }
    let outOfRange = choices.filter { !(1...$0.1).contains($0.0) }
    verdict(
        !choices.isEmpty && outOfRange.isEmpty,
        "choices shown: \(choices.count), outside 1...n: \(outOfRange.map { "\($0.0) of \($0.1)" })")
}
