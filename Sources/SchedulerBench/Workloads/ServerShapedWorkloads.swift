import SchedulerKit

// Two workloads shaped like a server on Swift concurrency, where every request is tasks on the global executor:
// W24 fans a request out to many small tasks and back in, W25 pushes a burst through a pipeline of actors fed by an
// `AsyncStream`. On the `default-executor` reference they measure the process's global executor itself, whichever
// it is (`bench global-executors` runs them with Dispatch's, SwiftNIO's and a ThreadPool's); on a backend, the tasks
// prefer its task executor and the actors run on its executors.

extension Workload {
    /// W24: a task group adds `width` children (each a few nanoseconds of work) and sums their results, one group after
    /// another until `tasks` children ran; per child task.
    static let taskFanIn = actorWorkload(
        id: .taskFanIn, name: "task-fan-in",
        summary: "a task group fans out to small child tasks on the backend's executor and sums them back in",
        hosts: .tasks, timing: .nsPerTask, allocations: .allocsPerTask, sizeClassBytes: .sizeClassBytesPerTask,
        countedBy: .tasks,
        configurations: { scale in
            [Parameters([.tasks: scale.size(full: 20_000, quick: 5_000, smoke: 64), .width: 64])]
        }
    ) { lanes, parameters in
        let executor = lanes.lane("tasks").taskExecutor
        let width = parameters[.width]
        return ActorLoop(caller: nil) { tasks in
            var done = 0
            while done < tasks {
                let children = min(width, tasks - done)
                let sum = await withTaskGroup(of: Int.self) { group in
                    for index in 0..<children { group.addTask(executorPreference: executor) { index &* 31 } }
                    return await group.reduce(0, &+)
                }
                precondition(sum == (0..<children).reduce(0) { $0 &+ $1 &* 31 }, "a child's result was lost")
                done += children
            }
        }
    }

    /// W25: a producer yields `events` values at once into an `AsyncStream` (unbounded); a consumer task takes each
    /// and passes it through two actors in turn (parse, then handle), as a connection's pipeline does under a burst;
    /// per event, from the first yield to the last event handled. With `consumer=before` the consumer task is started
    /// before the burst, as a connection's handler is: the global executor decides whether it runs beside the
    /// producer (and contends for the stream) or after it. With `consumer=after`, its ideal, it is started once the
    /// burst is written: that decision is made, at its best, by the workload.
    static let actorPipeline = actorWorkload(
        id: .actorPipeline, name: "actor-pipeline",
        summary: "a burst through an AsyncStream and two actors on the backend's executors",
        hosts: .actors, timing: .nsPerEvent, allocations: .allocsPerEvent, sizeClassBytes: .sizeClassBytesPerEvent,
        countedBy: .events,
        configurations: { scale in
            PipelineConsumer.allCases.map {
                Parameters(
                    [.events: scale.size(full: 20_000, quick: 5_000, smoke: 64)], choices: [.consumer: $0.rawValue])
            }
        },
        ideal: { parameters in
            guard PipelineConsumer(parameters) == .before else { return nil }
            return Parameters([.events: parameters[.events]], choices: [.consumer: PipelineConsumer.after.rawValue])
        }
    ) { lanes, parameters in
        let (parse, handle) = (lanes.lane("parse").makeActor(), lanes.lane("handle").makeActor())
        let startsBefore = PipelineConsumer(parameters) == .before
        return ActorLoop(caller: nil) { events in
            let (stream, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .unbounded)
            @Sendable func consume() async -> Int {
                var handled = 0
                for await _ in stream {
                    await parse.touch()
                    await handle.touch()
                    handled += 1
                }
                return handled
            }
            let early = startsBefore ? Task { await consume() } : nil
            for event in 0..<events { continuation.yield(event) }
            continuation.finish()
            // Read by a task of its own in both: the producer's own task reading the burst was 15 % slower than
            // either (measured, not traced), so it would be no ideal.
            let handled = await (early ?? Task { await consume() }).value
            precondition(handled == events, "\(events - handled) events of the burst were lost")
        }
    }
}

/// When W25's consumer task starts.
enum PipelineConsumer: String, CaseIterable {
    /// Before the burst, as a connection's handler does.
    case before
    /// Once the burst is written: W25's ideal.
    case after

    init(_ parameters: Parameters) { self = parameters.option(.consumer) }
}
