import Dispatch
import Foundation
import SchedulerKit

extension RuleFamily {
    public static let executor = RuleFamily("E", title: "Executors (actors and tasks on a scheduler)")
}

extension RuleID {
    public static let e1 = RuleID(newRuleOf: .executor, number: 1)
    public static let e2 = RuleID(newRuleOf: .executor, number: 2)
    public static let e3 = RuleID(newRuleOf: .executor, number: 3)
    public static let e4 = RuleID(newRuleOf: .executor, number: 4)
    public static let e5 = RuleID(newRuleOf: .executor, number: 5)
    public static let e6 = RuleID(newRuleOf: .executor, number: 6)
}

/// E: a serial scheduler as a Swift-concurrency executor: an actor's `SerialExecutor` (``SchedulerExecutor``) and a
/// task's `TaskExecutor` (``SchedulerTaskExecutor``). Tasks are started with a task executor over the scheduler as
/// their preference, so no check needs the global cooperative pool (which the test runner's own threads may be
/// blocking).
enum SchedulerAsExecutorRules {
    /// E3's jobs, enqueued from one thread.
    static let enqueuedJobs = 1_000

    static let all: [ConformanceRule] = [
        exclusion, isolation, fifoPerEnqueuer, released, noNestedJobs, refusedWhenInline,
    ]

    /// The rules apply exactly where ``SchedulerExecutor/accepts(_:)`` does: serial schedulers that set themselves
    /// current, run work later (asynchronous, or virtual time) and take calls from any thread; the trampoline, which
    /// runs nested work on the caller's stack, never.
    static let requirements = SchedulerExecutor.requiredTraits
    static let requiredOneOf = SchedulerExecutor.runsLaterTraits
    static let exclusions: SchedulerTraits = SchedulerExecutor.refusedTraits.union(.trampoline)

    /// A fresh scheduler of the backend. Its traits are the backend's, which the rule's gate accepted; a scheduler
    /// whose own traits say otherwise misstates them (T7's business), and fails here rather than trap.
    static func makeExecutorScheduler(_ context: ConformanceContext) throws -> any Scheduler {
        let scheduler = context.makeScheduler()
        guard SchedulerExecutor.accepts(scheduler.traits) else {
            throw RuleFailure(
                "\(scheduler.name)'s own traits [\(scheduler.traits)] differ from its backend's [\(context.backend.traits)]: they cannot back an executor"
            )
        }
        return scheduler
    }

    static let exclusion = ConformanceRule(
        id: .e1, family: .executor,
        evidence: .mixed(
            forced: "the scheduler current in every job", trials: 3_000,
            trial: "jobs of 4 tasks and calls into one actor that might overlap"),
        statement:
            "Jobs on the executor (an actor's, and those of tasks that prefer it) never run two at a time, and each runs with Schedulers.current set to the scheduler.",
        why:
            "An actor's isolation rests on its executor running one job at a time; on a scheduler's executor the job also needs the scheduler current.",
        catches: "A SerialExecutor over a scheduler that is not serial.",
        requires: requirements, excludes: exclusions, requiresOneOf: requiredOneOf,
        deadline: RuleDeadline.long
    ) { context in
        let scheduler = try makeExecutorScheduler(context)
        let probe = ProbeActor(on: scheduler)
        let callers = 4
        let calls = 500
        let actorCalls = 250
        let finished = DispatchSemaphore(value: 0)
        // The Swift runtime already keeps one actor's jobs apart, whatever the executor does; the tasks' own
        // (nonisolated) jobs between actor calls are what show whether the executor itself runs one job at a time.
        let inside = Counter()
        let overlaps = Counter()
        let notCurrent = Counter()
        try context.whileDriven(scheduler) {
            for caller in 0..<callers {
                Task(executorPreference: probe.taskExecutor) {
                    for _ in 0..<calls {
                        if inside.increment() != 1 { overlaps.increment() }
                        if Schedulers.current !== scheduler { notCurrent.increment() }
                        holdBriefly()  // widen the window in which an overlapping job would be seen
                        inside.decrement()
                        await Task.yield()
                    }
                    // Actor calls last: after one, the runtime may keep the task on the actor, hiding the executor.
                    for index in 0..<actorCalls { await probe.enter(caller: caller, index: index) }
                    finished.signal()
                }
            }
            for _ in 0..<callers {
                try require(wait(finished), "actor calls did not finish within 30 s")
            }
        }
        let count = probe.calls.value
        try require(
            count == callers * actorCalls, "\(grouped(count)) of \(grouped(callers * actorCalls)) actor jobs ran")
        let overlapped = overlaps.value + probe.overlaps.value
        try require(overlapped == 0, "two jobs on the executor overlapped \(grouped(overlapped)) times")
        let wrong = notCurrent.value + probe.notCurrent.value
        try require(wrong == 0, "\(grouped(wrong)) jobs ran without the scheduler current")
        return ""
    }

    static let isolation = ConformanceRule(
        id: .e2, family: .executor,
        statement:
            "The executor reports the actor's isolation inside the scheduler's tasks (so assumeIsolated and preconditionIsolated hold there) and denies it everywhere else.",
        why:
            "assumeIsolated and preconditionIsolated must hold exactly where the executor runs jobs, or isolation checks pass where they should fail.",
        catches: "An executor whose isolation check accepts any thread.",
        requires: requirements, excludes: exclusions, requiresOneOf: requiredOneOf
    ) { context in
        let scheduler = try makeExecutorScheduler(context)
        let executor = SchedulerExecutor(scheduler)
        let inside = Shared<Bool?>(nil)
        let onRawThread = Shared<Bool?>(nil)
        scheduler.schedule { inside.update { $0 = executor.isIsolatingCurrentContext() } }
        let raw = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            onRawThread.update { $0 = executor.isIsolatingCurrentContext() }
            raw.signal()
        }
        try context.waitUntil("a task on the scheduler", on: scheduler) { inside.value != nil }
        try require(wait(raw), "a raw Dispatch block did not run")
        try require(
            inside.value == true,
            "isIsolatingCurrentContext() was \(String(describing: inside.value)) inside a task of the scheduler")
        try require(
            onRawThread.value == false,
            "isIsolatingCurrentContext() was \(String(describing: onRawThread.value)) on a raw Dispatch thread")
        try require(
            executor.isIsolatingCurrentContext() == false, "isIsolatingCurrentContext() was true on the checking thread"
        )
        return ""
    }

    static let fifoPerEnqueuer = ConformanceRule(
        id: .e3, family: .executor,
        evidence: .observed(trials: enqueuedJobs, trial: "jobs enqueued from one thread that might run out of order"),
        statement: "Jobs enqueued on the executor from one thread run in the order they were enqueued.",
        why: "Jobs enqueued from one thread, an actor's calls from one task, must run in the order they were enqueued.",
        catches: "An executor that enqueues through a concurrent queue.",
        requires: requirements, excludes: exclusions, requiresOneOf: requiredOneOf
    ) { context in
        let scheduler = try makeExecutorScheduler(context)
        let executor = SchedulerTaskExecutor(scheduler)
        let order = Shared<[Int]>([])
        let jobs = enqueuedJobs
        try context.whileDriven(scheduler) {
            for index in 0..<jobs {
                Task(executorPreference: executor) { order.append(index) }
            }
            try context.waitUntil("\(jobs) jobs", on: scheduler) { order.value.count == jobs }
        }
        let seen = order.value
        if let breach = seen.indices.dropFirst().first(where: { seen[$0] < seen[$0 - 1] }) {
            throw RuleFailure(
                "job \(seen[breach]) ran after job \(seen[breach - 1]) (position \(grouped(breach)) of \(grouped(jobs)))"
            )
        }
        return ""
    }

    static let released = ConformanceRule(
        id: .e4, family: .executor,
        statement: "The executor, and the scheduler it holds, are released once the last actor using it is.",
        why: "Actors come and go; their executors must not outlive them.",
        catches: "A scheduler retained by its own executor (a cycle).",
        requires: requirements, excludes: exclusions, requiresOneOf: requiredOneOf
    ) { context in
        let scheduler = try makeExecutorScheduler(context)
        weak var weakExecutor: SchedulerExecutor?
        let finished = DispatchSemaphore(value: 0)
        try context.whileDriven(scheduler) {
            var probe: ProbeActor? = ProbeActor(on: scheduler)
            weakExecutor = probe!.executor
            let captured = probe!
            Task(executorPreference: captured.taskExecutor) {
                await captured.enter(caller: 0, index: 0)
                finished.signal()
            }
            probe = nil
            try require(wait(finished), "an actor call did not finish within 30 s")
        }
        try context.waitUntil("the executor to be released", on: scheduler) { weakExecutor == nil }
        return ""
    }
}

/// Busy for about 20 µs.
private func holdBriefly() {
    let until = SchedulerTime.monotonicNow() + .microseconds(20)
    while SchedulerTime.monotonicNow() < until {}
}

/// An actor whose jobs run on a scheduler, counting what the E rules look at.
final actor ProbeActor {
    nonisolated let executor: SchedulerExecutor
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    /// For the tasks that call it: their own jobs run on the same scheduler as the actor's.
    nonisolated let taskExecutor: SchedulerTaskExecutor
    nonisolated let overlaps = Counter()
    nonisolated let notCurrent = Counter()
    nonisolated let calls = Counter()
    private let inside = Counter()

    init(on scheduler: any Scheduler) {
        executor = SchedulerExecutor(scheduler)
        taskExecutor = SchedulerTaskExecutor(scheduler)
    }

    func enter(caller: Int, index: Int) {
        if inside.increment() != 1 { overlaps.increment() }
        if Schedulers.current !== executor.scheduler { notCurrent.increment() }
        calls.increment()
        inside.decrement()
    }
}

extension SchedulerAsExecutorRules {
    /// E5: forced. Each job enqueues the next from inside itself and writes before and after doing so; an executor
    /// that runs a job inside `enqueue` (a shortcut for a scheduler that takes no prepared nodes, say) writes the
    /// child between the two, every time.
    static let noNestedJobs = ConformanceRule(
        id: .e5, family: .executor,
        statement:
            "A job enqueued from inside a running job of the same executor runs after that job, never nested inside it: on an actor's executor and on a task's.",
        why:
            "A job run inside enqueue runs on the stack of the job that enqueued it: an actor's code runs re-entrantly inside its own job, and what was meant to follow the current job overtakes the rest of it.",
        catches:
            "An executor that runs the job at once inside enqueue instead of handing it to the scheduler, for schedulers that take no prepared nodes (two mutants of the kit's mutation pass, Docs/Conformance.md).",
        requires: requirements, excludes: exclusions, requiresOneOf: requiredOneOf
    ) { context in
        let scheduler = try makeExecutorScheduler(context)
        let probe = ProbeActor(on: scheduler)
        let log = Shared<[String]>([])
        let finished = DispatchSemaphore(value: 0)
        try context.whileDriven(scheduler) {
            Task(executorPreference: probe.taskExecutor) {
                log.append("task: before")
                Task(executorPreference: probe.taskExecutor) {
                    log.append("task: child")
                    finished.signal()
                }
                log.append("task: after")
                await probe.enqueueFromInside(log: log, finished: finished)
            }
            for _ in 0..<2 { try require(wait(finished), "the jobs did not finish within 30 s: \(log.value)") }
        }
        let seen = log.value
        for executor in ["task", "actor"] {
            let order = ["before", "after", "child"].map { seen.firstIndex(of: "\(executor): \($0)") }
            guard order.allSatisfy({ $0 != nil }), order == order.sorted(by: { $0! < $1! }) else {
                throw RuleFailure("on the \(executor)'s executor the jobs ran as \(seen.joined(separator: ", "))")
            }
        }
        return ""
    }
}

extension ProbeActor {
    /// Starts a task isolated to this actor, so its job is enqueued on this actor's executor from inside this job.
    func enqueueFromInside(log: Shared<[String]>, finished: DispatchSemaphore) {
        log.append("actor: before")
        Task {
            self.touch()
            log.append("actor: child")
            finished.signal()
        }
        log.append("actor: after")
    }

    private func touch() {}
}

extension SchedulerAsExecutorRules {
    /// E6 is the other half of the E rules' gate: they judge the executors ``SchedulerExecutor/accepts(_:)`` lets
    /// a user build, and this one judges `accepts` itself, on every scheduler, against where the scheduler was seen to
    /// run work. Forced: the check calls `schedule` in each situation where a scheduler may run work on the caller's
    /// stack, so whether it did is seen every time, not by chance.
    static let refusedWhenInline = ConformanceRule(
        id: .e6, family: .executor,
        statement:
            "A scheduler that runs work on the caller's stack (called where no scheduler is current, from inside one of its own tasks, from inside a task of another scheduler, or on the main queue where it claims that path, each with none of its own work outstanding), or that is confined to one thread, cannot back an executor: SchedulerExecutor.accepts(its traits) is false.",
        why:
            "An executor runs a job later than the enqueue that submitted it; over a scheduler that runs work inline, an actor's job would run inside the job that enqueued it, on its stack, and overtake the rest of it (E5's promise), and SchedulerExecutor(_:) would build that executor without a word.",
        catches:
            "An accepts(_:) that asks only for serial and current-setting, so that the immediate scheduler and a main-thread scheduler that runs inline become executors (the fresh mutant set's 89; the E rules' gate alone never offers such a scheduler); one that accepts RxSwift's thread-confined HistoricalScheduler, whose first actor job stopped the program (seen on 6.10.2).",
        requires: []
    ) { context in
        let scheduler = context.makeScheduler()
        let inside = InsideSchedule()
        let seen = Shared<[String: Bool]>([:])
        /// Calls `schedule` as `situation` and records whether the work ran on this call's stack.
        @Sendable func call(_ situation: String) {
            inside.call {
                _ = scheduler.schedule {
                    let onStack = inside.thisThreadIsInside
                    seen.update { $0[situation] = onStack }
                }
            }
        }
        // One situation at a time, each waited for: a main-thread scheduler runs work inline only while none of
        // its own is outstanding, so an earlier situation's work still queued would hide the inline path.
        var situations: [String] = []
        func observe(_ situation: String, _ start: () throws -> Void) throws {
            situations.append(situation)
            try start()
            try context.waitUntil("work scheduled \(situation)", on: scheduler) { seen.value[situation] != nil }
        }
        if scheduler.traits.contains(.inlineOnMainQueue) {
            try observe("on the main queue") { DispatchQueue.main.async { call("on the main queue") } }
        }
        try observe("where no scheduler is current") { call("where no scheduler is current") }
        try observe("from inside one of its own tasks") {
            _ = scheduler.schedule { call("from inside one of its own tasks") }
        }
        // A scheduler confined to one thread takes no calls from a thread of another scheduler.
        if !scheduler.traits.contains(.threadConfined) {
            let situation = "from inside a task of another scheduler"
            try observe(situation) {
                try runAsTask(
                    context, on: DispatchQueueScheduler(name: "conformance-host"),
                    "a task of another scheduler that calls schedule (a schedule that never returns holds it)"
                ) {
                    call(situation)
                }
            }
        }
        let inline = situations.filter { seen.value[$0] == true }
        let accepted = SchedulerExecutor.accepts(scheduler.traits)
        try require(
            inline.isEmpty || !accepted,
            "it ran work on the caller's stack (called \(inline.joined(separator: "; "))), yet SchedulerExecutor.accepts([\(scheduler.traits)]) is true: an executor over it would run jobs inside the enqueue that submitted them"
        )
        try require(
            !scheduler.traits.contains(.threadConfined) || !accepted,
            "it is confined to one thread, yet SchedulerExecutor.accepts([\(scheduler.traits)]) is true: the runtime would enqueue an actor's jobs from threads of its own"
        )
        if !inline.isEmpty {
            return "ran work on the caller's stack (called \(inline.joined(separator: "; "))); refused as an executor"
        }
        return "ran no work on the caller's stack in \(situations.count) situations; "
            + (accepted ? "accepted as an executor" : "refused as an executor by its traits [\(scheduler.traits)]")
    }
}
