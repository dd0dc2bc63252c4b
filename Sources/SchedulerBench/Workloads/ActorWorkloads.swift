import Dispatch
import SchedulerKit

// Actors and tasks on each backend's executor (`SchedulerExecutor`), beside default actors and tasks on Swift's
// global executor (the `default-executor` reference): "should I use a scheduler or an actor?", measured.
// Each workload is one loop (an ``ActorLoop``): timed in the bench's rounds, and counted in its allocation pass
// (``AllocationProbe``). The caller is a task on the global executor, except for W11 with `caller=backend`.

extension Workload {
    /// W11: one task awaits an actor method `calls` times (W1 driven through an actor). With `caller=global` the
    /// task starts on the global executor, and nothing between two calls needs another executor: the task stays on
    /// the actor's executor after the first call, so each later call runs inline, on a default actor and on an actor
    /// on a scheduler alike (what a loop of calls into one actor costs). With `caller=backend` the task prefers a task
    /// executor over a second scheduler of the same backend instance, where its own code must run between calls, so
    /// every call crosses between the two schedulers (for the `default-executor` reference that is the global
    /// executor again).
    static let actorHop = actorWorkload(
        id: .actorHop, name: "actor-hop", summary: "await actor.method() from a task, actor on the backend's executor",
        hosts: .actors,
        timing: .nsPerCall, allocations: .allocsPerCall, sizeClassBytes: .sizeClassBytesPerCall, countedBy: .calls,
        configurations: { scale in
            ActorHopCaller.allCases.map {
                Parameters(
                    [.calls: scale.size(full: 50_000, quick: 10_000, smoke: 100)], choices: [.caller: $0.rawValue])
            }
        }
    ) { lanes, parameters in
        let actor = lanes.lane("actor").makeActor()
        let caller = ActorHopCaller(parameters) == .backend ? lanes.lane("caller").taskExecutor : nil
        return ActorLoop(caller: caller) { calls in
            for _ in 0..<calls { await actor.touch() }
        }
    }

    /// W12: create a task on the backend's executor (a task executor preference) and await its value, `tasks` times.
    /// With `caller=global` the awaiting task runs on the global executor, so each finished task resumes it on another
    /// set of threads; with `caller=backend` it prefers a second scheduler of the same backend instance.
    static let taskLifecycle = actorWorkload(
        id: .taskLifecycle, name: "task-lifecycle",
        summary: "Task(executorPreference:) { }.value, created and awaited one at a time", hosts: .tasks,
        timing: .nsPerTask, allocations: .allocsPerTask, sizeClassBytes: .sizeClassBytesPerTask, countedBy: .tasks,
        configurations: { scale in
            ActorHopCaller.allCases.map {
                Parameters([.tasks: scale.size(full: 5_000, quick: 2_000, smoke: 50)], choices: [.caller: $0.rawValue])
            }
        }
    ) { lanes, parameters in
        let executor = lanes.lane("tasks").taskExecutor
        let caller = ActorHopCaller(parameters) == .backend ? lanes.lane("caller").taskExecutor : nil
        return ActorLoop(caller: caller) { tasks in
            for index in 0..<tasks { _ = await Task(executorPreference: executor) { index }.value }
        }
    }

    /// W13: two actors on two executors of the backend bounce a call back and forth (W4 driven through actors).
    static let actorPingPong = actorWorkload(
        id: .actorPingPong, name: "actor-ping-pong",
        summary: "round trips between two actors, each on its own executor", hosts: .actors,
        timing: .nsPerRoundTrip, allocations: .allocsPerRoundTrip, sizeClassBytes: .sizeClassBytesPerRoundTrip,
        countedBy: .roundTrips,
        configurations: { [Parameters([.roundTrips: $0.size(full: 5_000, quick: 2_000, smoke: 50)])] }
    ) { lanes, _ in
        let (ping, pong) = (lanes.lane("ping").makeActor(), lanes.lane("pong").makeActor())
        return ActorLoop(caller: nil) { trips in await ping.rally(with: pong, trips: trips) }
    }

    /// An actor workload: `prepare` sets up one round's actors and returns its loop; the timing round runs the loop
    /// `countedBy` times and reports `timing` per unit; the allocation pass counts the same loop (``AllocationProbe``).
    static func actorWorkload(
        id: WorkloadID, name: String, summary: String, hosts: Hosted, timing: Metric, allocations: Metric,
        sizeClassBytes: Metric,
        countedBy: ParameterName, configurations: @escaping @Sendable (Scale) -> [Parameters],
        ideal: @escaping @Sendable (Parameters) -> Parameters? = { _ in nil },
        prepare: @escaping @Sendable (LaneGroup, Parameters) -> ActorLoop
    ) -> Workload {
        let probe = AllocationProbe(
            allocations: allocations, sizeClassBytes: sizeClassBytes,
            units: { $0[countedBy] }, prepare: prepare)
        return Workload(
            id: id, name: name, summary: summary, requires: hosts.requires, metrics: [timing],
            allocationProbe: probe, configurations: configurations, ideal: ideal
        ) { lanes, _, parameters in
            let units = parameters[countedBy]
            let elapsed = prepare(lanes, parameters).run(units)
            return RoundResult(values: [timing: Double(elapsed) / Double(units)])
        }
    }
}

/// What an actor workload puts on the backend: actors (and the tasks that call them), or tasks only.
enum Hosted {
    case actors, tasks

    var requires: Capabilities {
        switch self {
        case .actors: [.executor, .taskExecutor, .promptWakeUp]
        case .tasks: [.taskExecutor, .promptWakeUp]
        }
    }
}

/// Where W11's and W12's calling task runs.
package enum ActorHopCaller: String, CaseIterable {
    /// A detached task on Swift's global executor.
    case global
    /// A task preferring an executor over another scheduler of the same backend instance.
    case backend

    init(_ parameters: Parameters) { self = parameters.option(.caller) }
}

/// One round's work of an actor workload: `body(units)` runs `units` repetitions, in a task started on `caller`
/// (nil: a detached task on the global executor; bench threads are not cooperative ones, so they block on it).
struct ActorLoop: Sendable {
    let caller: (any TaskExecutor)?
    let body: @Sendable (_ units: Int) async -> Void

    /// Runs `units` repetitions in a fresh task and waits for it; returns the nanoseconds the repetitions took.
    func run(_ units: Int) -> UInt64 { timed(units) { () }.elapsed }

    /// Runs `units` repetitions as ``run(_:)`` does and returns what `read` read just before and just after they
    /// were timed (from inside the task: its own start and end are outside).
    func readings<Reading: Sendable>(
        _ units: Int, _ read: @escaping @Sendable () -> Reading
    ) -> (before: Reading, after: Reading) {
        let readings = timed(units, read).readings
        return (readings[0], readings[1])
    }

    private func timed<Reading: Sendable>(
        _ units: Int, _ read: @escaping @Sendable () -> Reading
    ) -> (elapsed: UInt64, readings: [Reading]) {
        let result = Locked<(elapsed: UInt64, readings: [Reading])>((0, []))
        let done = DispatchSemaphore(value: 0)
        Task.detached(executorPreference: caller) { [body] in
            let before = read()
            let start = Clock.now()
            await body(units)
            let end = Clock.now()
            let after = read()
            result.withLock { $0 = (end &- start, [before, after]) }
            done.signal()
        }
        done.wait()
        return result.withLock { $0 }
    }
}

/// What W11 and W13 call: the same methods on an actor of either kind.
protocol BenchActor: Actor {
    func touch()
    func rally(with other: any BenchActor, trips: Int) async
}

extension BenchActor {
    /// Each trip goes there and back: a call to `other`, then one to `self`. Without the second, nothing after the
    /// call needs this actor, so the compiler drops the hop back and the task stays on `other`'s executor, where
    /// every later call runs inline (measured: 32–59 ns and no allocation a "trip" on every backend).
    func rally(with other: any BenchActor, trips: Int) async {
        for _ in 0..<trips {
            await other.touch()
            touch()
        }
    }
}

/// An actor on Swift's default executor.
private actor DefaultBenchActor: BenchActor {
    private var touches = 0
    func touch() { touches += 1 }
}

/// An actor whose jobs run on a lane's executor: a `SchedulerExecutor` over its scheduler, or a peer's own
/// (NIO's event-loop executor).
private actor ExecutorBenchActor: BenchActor {
    /// Kept alive for the actor's life; the runtime holds only the unowned reference.
    nonisolated let executor: any SerialExecutor
    nonisolated let unownedExecutor: UnownedSerialExecutor
    private var touches = 0

    init(_ executor: any SerialExecutor) {
        self.executor = executor
        self.unownedExecutor = executor.asUnownedSerialExecutor()
    }
    func touch() { touches += 1 }
}

extension Lane {
    /// An actor on this lane's executor, or a default actor on a lane with none (the `default-executor` reference).
    func makeActor() -> any BenchActor {
        serialExecutor.map { ExecutorBenchActor($0) } ?? DefaultBenchActor()
    }
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
