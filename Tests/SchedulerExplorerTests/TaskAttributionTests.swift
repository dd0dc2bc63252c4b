import SchedulerExplorer
import SchedulerKit
import Testing

/// Jobs count with the task they continue. On Swift 6.3 a yield of a task that prefers an executor, and a default
/// actor's turn after a task hopped onto it, reach the executor as jobs of no task; the explorer counts each with the
/// task that made it, so a trace numbers real tasks only and PCT's priorities, and its bound, are per real task.
@Suite struct TaskAttributionTests {
    /// Three named tasks yield twice each, then two children call one actor: 6 tasks and the body's.
    static func body(_ exploration: Exploration) async throws {
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<3 {
                group.addTask(name: "yielder \(index)") {
                    for _ in 0..<2 { await Task.yield() }
                }
            }
        }
        let shared = Shared()
        async let first: Void = shared.touch()
        async let second: Void = shared.touch()
        _ = await (first, second)
        try check(false, "stop here, to see the trace")
    }

    static func stepTasks(_ trace: String) -> [String] {
        trace.split(separator: "\n").compactMap { line in
            line.split(separator: " ").first { $0.hasPrefix("t") && $0.dropFirst().allSatisfy(\.isNumber) }.map(
                String.init)
        }
    }

    @Test func aTraceNumbersRealTasksOnlyAndNamesThem() async throws {
        let report = await explore(schedules: 1, strategy: .random, seed: 3) { try await Self.body($0) }
        let failure = try #require(report.failure)
        let tasks = Set(Self.stepTasks(failure.trace))
        #expect(tasks == ["t1", "t2", "t3", "t4", "t5", "t6"], "\(failure.trace)")
        for index in 0..<3 { #expect(failure.trace.contains("'yielder \(index)'"), "\(failure.trace)") }
        #expect(failure.trace.contains("runtime job"), "\(failure.trace)")
    }

    /// PCT with depth 1 has no change point: the ready task of the highest priority always runs, so each yielder
    /// runs to its end once it starts. A yield's extra job with a priority of its own would let another task in.
    @Test func pctRunsEachTaskByItsOwnPriority() async throws {
        for seed in UInt64(0)..<20 {
            let report = await explore(schedules: 1, strategy: .pct(depth: 1, steps: 50), seed: seed) {
                try await Self.body($0)
            }
            let failure = try #require(report.failure)
            let order = Self.stepTasks(failure.trace).filter { $0 != "t1" }
            // Each task's steps form one block: a task never comes back after another ran.
            var finished = Set<String>()
            var previous: String?
            for task in order {
                if task != previous, let previous { finished.insert(previous) }
                #expect(!finished.contains(task), "seed \(seed): \(task) came back\n\(failure.trace)")
                previous = task
            }
        }
    }
}

private actor Shared {
    private var touches = 0
    func touch() { touches += 1 }
}
