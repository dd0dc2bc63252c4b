import SchedulerKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// X5–X6: how tasks meet an executor. A task's preference (SE-0417) decides where its nonisolated code runs;
/// `Task.immediate` (SE-0472) decides what runs before the caller goes on. Both are the runtime's rules, but they hold
/// only if the executor runs its jobs itself, on its own threads, and never inside `enqueue`.
extension ExecutorSubjectRules {
    static let preferenceInherited = ConformanceRule.executor(
        id: .x5,
        statement:
            "A task that prefers the executor runs its nonisolated code there, before and after a suspension, and so do its child tasks (async let, task group) and the methods of default actors it calls; an actor with an executor of its own runs its methods there instead, and the task comes back to the preferred executor after.",
        why:
            "SE-0417: a preference is how a library keeps a request's work on the threads it chose (an event loop, a pool); code that leaves them pays a hop each way and loses the thread's state the library relies on.",
        catches:
            "A TaskExecutor that hands its jobs on to the global concurrent executor: the task's code runs on the cooperative pool, not on the threads its user chose (negative control).",
        kinds: [.task]
    ) { executor in
        guard let preferred = executor.task else { return "" }
        let ownScheduler = DispatchQueueScheduler(name: "x5-own-executor")
        let ownActor = ActorOnExecutor(SchedulerExecutor(ownScheduler))
        let probe = executor.isRunningJob
        let identity = preferred.asUnownedTaskExecutor()
        let seen = await Task(executorPreference: preferred) { () -> [Sighting] in
            var seen = [Sighting(place: "the task's first job", onExecutor: probe?())]
            seen.append(
                Sighting(place: "a nonisolated async function after a suspension", onExecutor: await look(probe)))
            async let child = Sighting(
                place: "an async let child task", onExecutor: probe?(), carriesPreference: preference() == identity)
            seen.append(await child)
            seen.append(
                await withTaskGroup(of: Sighting.self) { group in
                    group.addTask {
                        Sighting(
                            place: "a task group's child task", onExecutor: probe?(),
                            carriesPreference: preference() == identity)
                    }
                    return await group.next()!
                })
            seen.append(
                Sighting(place: "a method of a default actor", onExecutor: await DefaultActorProbe().look(probe)))
            let (onOwn, onPreferred) = await ownActor.run { _ in (Schedulers.current === ownScheduler, probe?()) }
            seen.append(
                Sighting(
                    place: "a method of an actor with its own executor", onExecutor: onPreferred, expected: false,
                    onOwnExecutor: onOwn))
            seen.append(Sighting(place: "the task after that actor's method returned", onExecutor: probe?()))
            return seen
        }.value
        for sighting in seen {
            if sighting.onOwnExecutor == false {
                throw RuleFailure("\(sighting.place) did not run on that actor's executor")
            }
            if sighting.carriesPreference == false {
                throw RuleFailure("\(sighting.place) does not carry the task's executor preference")
            }
            if let onExecutor = sighting.onExecutor, onExecutor != sighting.expected {
                throw RuleFailure(
                    "\(sighting.place) ran \(onExecutor ? "on" : "off") the preferred executor (\(seen.count) places looked at)"
                )
            }
        }
        return probe == nil
            ? "cannot tell where nonisolated code ran (no isRunningJob): checked that child tasks carry the preference and that an actor's own executor overrides it"
            : ""
    }

    static let immediateStartsInline = ConformanceRule.executor(
        id: .x6,
        statement:
            "Task.immediate, started inside a job of one of the executor's actors and isolated to that actor, runs up to its first suspension before it returns, on the same thread; the rest runs later as a job of the executor, never while the starting job still runs, though that job waits 300 ms for it (3 rounds).",
        why:
            "SE-0472: code that must happen before the caller goes on (register an observer, take a slot) relies on the synchronous start; the code after the suspension relies on being a job of the actor again, kept apart from the caller's.",
        catches:
            "An executor that hands jobs to a concurrent queue: the task's rest runs beside the job that started it, both touching the actor's state (negative control).",
        kinds: [.serial]
    ) { executor in
        guard let serial = executor.serial else { return "" }
        let actor = ActorOnExecutor(serial)
        for round in 1...3 {
            let events = Shared<[ImmediateEvent]>([])
            let resumed = Shared(false)
            await actor.run { isolatedActor in
                let starter = pthread_self()
                Task.immediate {
                    _ = isolatedActor  // isolated to the actor, as the job that starts it
                    events.append(pthread_equal(starter, pthread_self()) != 0 ? .startedInline : .startedElsewhere)
                    await Task.yield()
                    events.append(.resumed)
                    resumed.update { $0 = true }
                }
                events.append(.returned)
                // Forced: the starting job holds the actor while the rest is due; only an executor that runs the
                // actor's jobs side by side lets it run now.
                waitFor(resumed, atMost: .milliseconds(300))
                events.append(.startingJobEnded)
            }
            try await poll("round \(round): the immediate task to resume", timeout: .seconds(10)) { resumed.value }
            let order = events.value
            try require(
                order == [.startedInline, .returned, .startingJobEnded, .resumed],
                "round \(round): saw \(order.map(\.rawValue).joined(separator: ", ")); expected started on the starting thread, Task.immediate returned, the starting job ended, resumed"
            )
        }
        return ""
    }
}

/// Where one piece of a preferring task's code ran, as X5 saw it.
private struct Sighting: Sendable {
    let place: String
    /// On a thread running one of the preferred executor's jobs; nil: the executor cannot tell.
    var onExecutor: Bool?
    /// Where the place should run: on the preferred executor, except an actor's with its own.
    var expected = true
    var carriesPreference: Bool?
    var onOwnExecutor: Bool?
}

private enum ImmediateEvent: String, Sendable {
    case startedInline = "started on the starting thread"
    case startedElsewhere = "started on another thread"
    case returned = "Task.immediate returned"
    case startingJobEnded = "the starting job ended"
    case resumed = "resumed after the suspension"
}

/// The task's executor preference, as the runtime records it.
private func preference() -> UnownedTaskExecutor? {
    withUnsafeCurrentTask { $0?.unownedTaskExecutor }
}

/// A nonisolated async function: it runs on the task's preferred executor (SE-0417), also after it suspends.
@concurrent private func look(_ probe: (@Sendable () -> Bool)?) async -> Bool? {
    await Task.yield()
    return probe?()
}

/// An actor with the default executor: its methods run on the calling task's preferred executor.
private actor DefaultActorProbe {
    func look(_ probe: (@Sendable () -> Bool)?) -> Bool? { probe?() }
}
