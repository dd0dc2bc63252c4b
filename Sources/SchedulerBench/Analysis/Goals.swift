/// The performance goals of BRIEF §7, judged on one run's summary rows (never asserted in tests).
public struct GoalCheck: Sendable {
    public enum Outcome: String, Sendable { case met, notMet = "not met", unknown = "not measured" }

    public let goal: String
    public let measured: String
    public let outcome: Outcome
    /// A row behind the figure is too noisy to trust.
    public let noisy: Bool
}

public enum Goals {
    /// Checks every goal on the rows of one allocator.
    public static func check(_ rows: [SummaryRow], allocator: String = "jemalloc") -> [GoalCheck] {
        let rows = rows.filter { $0.allocator == allocator }
        func row(_ backend: String, _ workload: String, _ metric: String, parameters: String? = nil) -> SummaryRow? {
            rows.first { $0.backend == backend && $0.workload == workload && $0.metric == metric
                && (parameters == nil || $0.parameters.contains(parameters!)) }
        }
        func ratio(_ goal: String, _ a: SummaryRow?, _ b: SummaryRow?, limit: Double, atMost: Bool = true,
                   describe: (Double) -> String) -> GoalCheck {
            guard let a, let b, b.summary.median > 0 else { return GoalCheck(goal: goal, measured: "-", outcome: .unknown, noisy: false) }
            let value = a.summary.median / b.summary.median
            let met = atMost ? value <= limit : value >= limit
            return GoalCheck(goal: goal, measured: describe(value), outcome: met ? .met : .notMet,
                             noisy: a.summary.isTooNoisy || b.summary.isTooNoisy)
        }
        let x = { (value: Double) in "\(Format.short(value))x" }
        // What the 4x goal asks for, beside the cheapest hand-off with a node per task measured in the same run.
        var floorContext = ""
        if let raw = row(Backend.rawDispatchName, "W1", "ns_per_task")?.summary.median,
           let floor = row(Backend.handOffFloorName, "W1", "ns_per_task")?.summary.median,
           let pool = row("threadpool", "W1", "ns_per_task")?.summary.median {
            floorContext = "; 4x needs ≤ \(Format.short(raw / 4)) ns per task, the hand-off floor (\(Backend.handOffFloorName)) is "
                + "\(Format.short(floor)) ns and the pool \(Format.short(pool / floor))x the floor"
        }
        let glibc = allocator == "system"
        var checks = [
            ratio("DispatchQueueScheduler ≤ \(glibc ? "1.30" : "1.10")x raw DispatchQueue.async (W1)",
                  row("dispatch", "W1", "ns_per_task"), row(Backend.rawDispatchName, "W1", "ns_per_task"),
                  limit: glibc ? 1.3 : 1.1, describe: x),
            ratio("OperationQueueScheduler ≤ 1.05x raw OperationQueue (W1)",
                  row("operationqueue", "W1", "ns_per_task"), row(Backend.rawOperationQueueName, "W1", "ns_per_task"),
                  limit: 1.05, describe: x),
            ratio("ThreadPoolScheduler ≥ 4x faster than raw Dispatch (W1)",
                  row(Backend.rawDispatchName, "W1", "ns_per_task"), row("threadpool", "W1", "ns_per_task"),
                  limit: 4, atMost: false, describe: { "\(Format.short($0))x faster" + floorContext }),
            ratio("ThreadPoolScheduler ≥ 2x faster than NIO's event loop, raw EventLoop.execute (W1)",
                  row(Backend.rawNIOExecuteName, "W1", "ns_per_task"), row("threadpool", "W1", "ns_per_task"),
                  limit: 2, atMost: false, describe: { "\(Format.short($0))x faster" }),
            ratio("ThreadPoolScheduler round trip ≤ 0.5x raw Dispatch's (W4)",
                  row("threadpool", "W4", "ns_per_round_trip"), row(Backend.rawDispatchName, "W4", "ns_per_round_trip"),
                  limit: 0.5, describe: x),
            ratio("ThreadPoolScheduler, 1 000 schedulers within 1.5x of 1 (W3)",
                  row("threadpool", "W3", "ns_per_task", parameters: "schedulers=1000 "),
                  row("threadpool", "W3", "ns_per_task", parameters: "schedulers=1 "), limit: 1.5, describe: x),
            ratio("ThreadPoolScheduler does not collapse with 8 producers on 2 cores: P=8 ≤ 2x P=1 (W2)",
                  row("threadpool", "W2", "ns_per_task", parameters: "producers=8 "),
                  row("threadpool", "W2", "ns_per_task", parameters: "producers=1 "), limit: 2, describe: x),
        ]
        let allocations = { (backend: String) in row(backend, "W9", "allocs_per_task")?.summary.median }
        func extra(_ goal: String, _ backend: String, over base: String, limit: Double, exact: Bool) -> GoalCheck {
            guard let mine = allocations(backend), let theirs = allocations(base) else {
                return GoalCheck(goal: goal, measured: "-", outcome: .unknown, noisy: false)
            }
            let more = mine - theirs
            let met = exact ? abs(more - limit) < 0.05 : more <= limit + 0.05
            return GoalCheck(goal: goal, measured: "\(Format.short(mine)) vs \(Format.short(theirs)) (\(base))",
                             outcome: met ? .met : .notMet, noisy: false)
        }
        checks.append(extra("ThreadPoolScheduler: exactly 1 allocation per schedule beyond the closure context (W9)",
                            "threadpool", over: Backend.directCallName, limit: 1, exact: true))
        checks.append(extra("DispatchQueueScheduler: at most 1 allocation more than raw Dispatch (W9)",
                            "dispatch", over: Backend.rawDispatchName, limit: 1, exact: false))
        func absolute(_ goal: String, _ row: SummaryRow?, limit: Double, describe: (Double) -> String) -> GoalCheck {
            guard let row else { return GoalCheck(goal: goal, measured: "-", outcome: .unknown, noisy: false) }
            return GoalCheck(goal: goal, measured: describe(row.summary.median),
                             outcome: row.summary.median <= limit ? .met : .notMet, noisy: row.summary.isTooNoisy)
        }
        // The harness's own floor (a direct call of the same closure) is part of every W1 figure: say how much is left.
        let directCall = row(Backend.directCallName, "W1", "ns_per_task")?.summary.median
        checks.append(absolute("ImmediateScheduler ≤ 10 ns per task (W1)", row("immediate", "W1", "ns_per_task"), limit: 10) { value in
            "\(Format.short(value)) ns" + (directCall.map {
                "; a direct call of the same closure costs \(Format.short($0)) ns here, so the scheduler's own share is \(Format.short(value - $0)) ns"
            } ?? "")
        })
        checks.append(absolute("TestScheduler ≥ 5 000 000 virtual tasks/s (W1)", row("test", "W1", "ns_per_task"), limit: 200) {
            "\(Format.short(1e9 / $0 / 1e6)) M tasks/s"
        })
        return checks
    }
}
