import Dispatch
import SchedulerKit

// Actors and tasks on each backend's executor (``SchedulerExecutor``), beside default actors and tasks on Swift's
// global executor (the `default-executor` reference): "should I use a scheduler or an actor?", measured.
// The caller is always a detached task on the global executor, so every row pays the same way into and out of it.

extension Workload {
    /// W11: one task awaits an actor method `calls` times (W1 driven through an actor): two executor hops per call
    /// for an actor on a scheduler; none for a default actor, whose job the runtime may run on the caller's thread.
    static let actorHop = Workload(
        id: "W11", name: "actor-hop", summary: "await actor.method() from a task, actor on the backend's executor",
        requires: [.executor], metrics: [MetricSpec("ns_per_call", unit: "ns")],
        configurations: { [Parameters(["calls": $0.size(full: 100_000, quick: 10_000, smoke: 100)])] }
    ) { lanes, _, parameters in
        let calls = parameters["calls"]
        let actor = lanes.lane("actor").makeActor()
        let elapsed = runBlocking {
            let start = Clock.now()
            for _ in 0..<calls { await actor.touch() }
            return Clock.now() - start
        }
        return RoundResult(values: ["ns_per_call": Double(elapsed) / Double(calls)])
    }

    /// W12: create a task on the backend's executor (a task executor preference) and await its value, `tasks` times.
    static let taskLifecycle = Workload(
        id: "W12", name: "task-lifecycle", summary: "Task(executorPreference:) { }.value, created and awaited one at a time",
        requires: [.executor], metrics: [MetricSpec("ns_per_task", unit: "ns")],
        configurations: { [Parameters(["tasks": $0.size(full: 50_000, quick: 5_000, smoke: 50)])] }
    ) { lanes, _, parameters in
        let tasks = parameters["tasks"]
        let executor = lanes.lane("tasks").taskExecutor
        let elapsed = runBlocking {
            let start = Clock.now()
            for index in 0..<tasks { _ = await Task(executorPreference: executor) { index }.value }
            return Clock.now() - start
        }
        return RoundResult(values: ["ns_per_task": Double(elapsed) / Double(tasks)])
    }

    /// W13: two actors on two executors of the backend bounce a call back and forth (W4 driven through actors).
    static let actorPingPong = Workload(
        id: "W13", name: "actor-ping-pong", summary: "round trips between two actors, each on its own executor",
        requires: [.executor], metrics: [MetricSpec("ns_per_round_trip", unit: "ns")],
        configurations: { [Parameters(["round_trips": $0.size(full: 20_000, quick: 2_000, smoke: 50)])] }
    ) { lanes, _, parameters in
        let trips = parameters["round_trips"]
        let (ping, pong) = (lanes.lane("ping").makeActor(), lanes.lane("pong").makeActor())
        let elapsed = runBlocking {
            let start = Clock.now()
            await ping.rally(with: pong, trips: trips)
            return Clock.now() - start
        }
        return RoundResult(values: ["ns_per_round_trip": Double(elapsed) / Double(trips)])
    }
}

/// Runs `body` in a detached task on the global executor and waits for it (bench threads are not cooperative ones).
private func runBlocking(_ body: @escaping @Sendable () async -> UInt64) -> UInt64 {
    let result = Locked<UInt64>(0)
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        let elapsed = await body()
        result.withLock { $0 = elapsed }
        done.signal()
    }
    done.wait()
    return result.withLock { $0 }
}

/// What W11 and W13 call: the same methods on an actor of either kind.
protocol BenchActor: Actor {
    func touch()
    func rally(with other: any BenchActor, trips: Int) async
}

extension BenchActor {
    func rally(with other: any BenchActor, trips: Int) async {
        for _ in 0..<trips { await other.touch() }
    }
}

/// An actor on Swift's default executor.
private actor DefaultBenchActor: BenchActor {
    private var touches = 0
    func touch() { touches += 1 }
}

/// An actor whose jobs run as tasks of a scheduler.
private actor ScheduledBenchActor: BenchActor {
    nonisolated let executor: SchedulerExecutor
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    private var touches = 0

    init(_ executor: SchedulerExecutor) { self.executor = executor }
    func touch() { touches += 1 }
}

extension Lane {
    /// An actor on this lane's scheduler, or a default actor on a lane with no scheduler (the reference).
    func makeActor() -> any BenchActor {
        scheduler.map { ScheduledBenchActor(SchedulerExecutor($0)) } ?? DefaultBenchActor()
    }

    /// A task executor over this lane's scheduler; nil (Swift's default) on a lane with no scheduler.
    var taskExecutor: (any TaskExecutor)? { scheduler.map { SchedulerExecutor($0) } }
}

/// The `default-executor` reference's lane: it only hosts actors and tasks (see ``Backend/hostsOnlyActors``).
final class DefaultExecutorLane: Lane {
    var scheduler: (any Scheduler)? { nil }
    func submit(_ work: @escaping @Sendable () -> Void) { Task.detached { work() } }
    func submit(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) {
        preconditionFailure("default-executor has no timers")
    }
    func drain() {}
}
