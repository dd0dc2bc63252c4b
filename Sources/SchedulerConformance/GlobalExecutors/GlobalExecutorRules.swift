import Foundation
import SchedulerKit
import Synchronization
import ToolSupport

extension RuleFamily {
    public static let globalExecutor = RuleFamily("GE", title: "Global executors (Swift's, or one that took it over)")
}

extension RuleID {
    public static let ge1 = RuleID(newRuleOf: .globalExecutor, number: 1)
    public static let ge2 = RuleID(newRuleOf: .globalExecutor, number: 2)
    public static let ge3 = RuleID(newRuleOf: .globalExecutor, number: 3)
    public static let ge4 = RuleID(newRuleOf: .globalExecutor, number: 4)
    public static let ge5 = RuleID(newRuleOf: .globalExecutor, number: 5)
    public static let ge6 = RuleID(newRuleOf: .globalExecutor, number: 6)
}

/// GE1–GE5: what Swift's global executor promises every task of a process, whoever provides it. The runtime keeps
/// most of these itself (a task's state, an actor's lock) provided the executor runs each job it is handed exactly
/// once, soon, and never inside the call that handed it over; an executor installed through the global-enqueue hook
/// is the only thing between a job and its run.
///
/// The checks block the kit's check thread: they start tasks from it (a plain thread, as a callback from C or a
/// Dispatch queue starts them) and from inside tasks, and wait for them by polling shared counts, never as tasks, so
/// a job the executor loses cannot also stop the check, and the check enqueues nothing that would rescue it.
///
/// The X rules' counterparts: X1 (mutual exclusion) is GE4 here, since a global executor's actors are default
/// actors; X3 (never inside enqueue) is GE5; X2 (FIFO) is no promise of a concurrent executor; X4–X6 are about the
/// executors actors and tasks choose, which a global executor is not.
public enum GlobalExecutorRules {
    public static let all: [ConformanceRule] = [
        everyJobOnce, manyThreadsAtOnce, sleepsEndOnTime, exclusion, neverInline, startedWhileAThreadIsFree,
    ]

    /// How long a check waits for the tasks it started before it counts those that never ran.
    static let wait: Duration = .seconds(10)

    static let everyJobOnce = ConformanceRule.globalExecutor(
        id: .ge1,
        statement:
            "Every job runs exactly once, on the executor's threads where it can tell: 1 000 `Task { }` and 1 000 `Task.detached` started from a plain thread, and from inside a task 200 each of `Task { }`, `async let` children, task-group children and continuations resumed from a plain thread, each yielding three times, all finish within 10 s; then the check waits for nothing and enqueues nothing, so the last job handed over is never rescued by a later one.",
        why:
            "A task whose job is lost never finishes and holds what it holds for ever (a request, a lock of the caller's, a continuation someone awaits); one run twice corrupts its task. The global executor runs every task of the process, so the loss is anyone's.",
        catches:
            "An executor that starts a job only when the next one arrives (a hand-off that forgets to wake a worker): the last job stays queued (negative control). One that runs a job twice: the runtime crashes (negative control). A takeover that did not happen: the jobs ran off the executor's threads.",
        deadline: .seconds(60)
    ) { executor in
        let marks = Marks(count: 2_000 + 4 * 200, isOwnThread: executor.isOwnThread)
        for index in 0..<1_000 { Task { await marks.run(index) } }
        for index in 1_000..<2_000 { Task.detached { await marks.run(index) } }
        Task.detached {
            for index in 2_000..<2_200 { Task { await marks.run(index) } }
            for index in 2_200..<2_400 {
                async let child: Void = marks.run(index)
                await child
            }
            await withTaskGroup(of: Void.self) { group in
                for index in 2_400..<2_600 { group.addTask { await marks.run(index) } }
            }
            for index in 2_600..<2_800 {
                await withCheckedContinuation { continuation in
                    Thread.detachNewThread { continuation.resume() }
                }
                await marks.run(index)
            }
        }
        try marks.awaitAll(
            "of the 2 800 tasks (1 000 Task { } and 1 000 Task.detached from a plain thread; 200 each of Task { }, async let, task-group children and tasks after a continuation from inside a task)"
        )
        return executor.isOwnThread == nil
            ? "cannot tell which threads are the executor's: checked that every job ran once"
            : "every step ran on the executor's own threads"
    }

    static let manyThreadsAtOnce = ConformanceRule.globalExecutor(
        id: .ge2,
        evidence: .observed(trials: 20_000, trial: "tasks started from 4 threads released together"),
        statement:
            "Nothing is lost when jobs arrive from many threads at once: 4 threads released together each start 5 000 `Task.detached`, and every one runs exactly once within 10 s.",
        why:
            "A server's connections, a framework's callbacks and Dispatch's timers all start tasks from threads of their own at the same moment; an enqueue path that is safe for one thread at a time loses jobs exactly under load.",
        catches:
            "An executor whose enqueue drops a job when it finds its queue busy (a try-lock fast path with no slow path): jobs from the other threads vanish (negative control)."
    ) { executor in
        let perThread = 5_000
        let marks = Marks(count: 4 * perThread, isOwnThread: executor.isOwnThread)
        Producers.run(4) { thread in
            for index in thread * perThread..<(thread + 1) * perThread { Task.detached { await marks.run(index) } }
        }
        try marks.awaitAll("of the 20 000 tasks started from 4 threads at once")
        return ""
    }

    static let sleepsEndOnTime = ConformanceRule.globalExecutor(
        id: .ge3,
        statement:
            "A sleep never ends early, and every sleeper wakes: 100 tasks started from a plain thread sleep 20 ms (half with `Task.sleep(for:)`, half until a deadline of `ContinuousClock`), each wakes no earlier than its deadline, and all have woken within 10 s.",
        why:
            "Timeouts, retries with back-off and rate limits are sleeps on the global executor; a wake-up that is lost hangs its task, one that comes early breaks the limit it enforces.",
        catches:
            "An executor that starts a job only when the next one arrives: the last wake-up stays queued (negative control). On Swift 6.3 a sleep's timer is Dispatch's and only its wake-up reaches a hook, so no executor installed by the hook can wake one early; an executor made by the executor factory schedules sleeps itself, and this is the check it meets.",
        deadline: .seconds(60)
    ) { executor in
        let sleepers = 100
        let nap = Duration.milliseconds(20)
        let early = Counter()
        let marks = Marks(count: sleepers, isOwnThread: nil)
        for index in 0..<sleepers {
            Task.detached {
                let start = ContinuousClock.now
                if index.isMultiple(of: 2) {
                    try? await Task.sleep(for: nap)
                } else {
                    try? await Task.sleep(until: start + nap, clock: .continuous)
                }
                if ContinuousClock.now - start < nap { early.increment() }
                await marks.run(index)
            }
        }
        try marks.awaitAll("of the 100 sleepers")
        try require(early.value == 0, "\(early.value) of the 100 sleepers woke before their 20 ms were up")
        return ""
    }

    static let exclusion = ConformanceRule.globalExecutor(
        id: .ge4,
        evidence: .observed(trials: 4_000, trial: "calls of 8 tasks into one default actor, a yield after each"),
        statement:
            "Default actors keep mutual exclusion and a task's steps run one at a time: 8 tasks each call one default actor 500 times with a yield after each; no call begins while another is inside, none is lost, and each task sees its own 500 steps, once each.",
        why:
            "Every default actor of the process runs on the global executor; its state is safe only if two of its jobs never run at once, and a task's code only if its jobs run one after another.",
        catches:
            "An executor that runs some jobs twice: the runtime does not survive it, and the crash fails the rule (negative control; the crash is in the child process, the other rules still run). The runtime guards an actor itself, so an executor that runs each job once cannot break this; the rule is here because that is the only way to be sure of it.",
        deadline: .seconds(60)
    ) { _ in
        let actor = ExclusionProbe()
        let steps = Counter()
        let wrongSteps = Counter()
        let finished = Counter()
        let callsSeen = Shared(0)  // the most calls a finished task saw: the last one sees them all
        for _ in 0..<8 {
            Task.detached {
                var own = 0
                for _ in 0..<500 {
                    await actor.enter()
                    own += 1
                    steps.increment()
                    await Task.yield()
                }
                if own != 500 { wrongSteps.increment() }
                let calls = await actor.calls
                callsSeen.update { $0 = max($0, calls) }
                finished.increment()
            }
        }
        poll(upTo: wait) { finished.value == 8 }
        try require(
            finished.value == 8,
            "\(8 - finished.value) of the 8 tasks did not finish within \(readable(wait)) (\(grouped(steps.value)) of 4 000 calls done)"
        )
        try require(
            actor.overlaps == 0, "a call of the actor began while another was inside, \(grouped(actor.overlaps)) times")
        let calls = callsSeen.value
        try require(calls == 4_000, "the actor counted \(grouped(calls)) calls of 4 000: updates were lost")
        try require(
            steps.value == 4_000 && wrongSteps.value == 0,
            "the tasks' steps ran \(grouped(steps.value)) times of 4 000; \(wrongSteps.value) tasks miscounted their own"
        )
        return ""
    }

    static let neverInline = ConformanceRule.globalExecutor(
        id: .ge5,
        statement:
            "A job never runs inside the call that enqueued it: 100 tasks started from a plain thread that holds a lock, and 100 started from inside a task, each begin only after `Task.init` returned on the starting thread.",
        why:
            "Code starts tasks while it holds a lock or is half way through changing its state (`Task { }` in a callback, a `didSet`, a `deinit`); run inline, the task takes the same lock (a deadlock) or sees the state half changed. Swift's own executor never runs a job inside enqueue, and code relies on it.",
        catches:
            "An executor that runs a job at once on the enqueuing thread when that thread looks idle (negative control)."
    ) { executor in
        let starting = Shared<UInt>(0)  // the thread inside Task.init now, 0 if none
        let inline = Counter()
        let marks = Marks(count: 200, isOwnThread: nil)
        let lock = Locked(0)
        @Sendable func check(_ index: Int) async {
            if starting.value == currentThreadID() { inline.increment() }
            await marks.run(index)
        }
        for index in 0..<100 {
            lock.withLock { _ in
                starting.update { $0 = currentThreadID() }
                Task.detached { await check(index) }
                starting.update { $0 = 0 }
            }
        }
        Task.detached {
            for index in 100..<200 {
                starting.update { $0 = currentThreadID() }
                Task { await check(index) }
                starting.update { $0 = 0 }
                await Task.yield()
            }
        }
        try marks.awaitAll("of the 200 tasks")
        try require(inline.value == 0, "\(inline.value) of the 200 tasks began inside the Task.init that started them")
        return ""
    }
}

extension GlobalExecutorRules {
    static let startedWhileAThreadIsFree = ConformanceRule.globalExecutor(
        id: .ge6,
        statement:
            "A task started by a job that then blocks its thread still starts while another thread of the executor is free: 20 times, a task on the global executor starts `Task.detached` and blocks its own thread (up to 2 s) until that task has run; every one runs within the wait.",
        why:
            "Code blocks a thread of the global executor more often than it should (a semaphore around a callback API, a lock held across an await-free wait, a synchronous bridge); Swift's executor runs the task it waits for on another thread, and an executor that keeps new work for the thread that made it turns such code into a deadlock.",
        catches:
            "An executor that runs a job started inside a job on the same thread after that job returns (a 'run next here' slot with no one to steal it): the waiting job never returns (negative control).",
        deadline: .seconds(150)
    ) { _ in
        let rounds = 20
        let late = Counter()
        let started = Counter()
        let finished = Counter()
        Task.detached {
            started.increment()
            for _ in 0..<rounds {
                let ran = Counter()
                Task.detached { ran.increment() }
                // Blocks this job's thread on purpose: what the rule is about. 2 s: over a second, the tick at which
                // libdispatch on Linux adds a thread to a pool whose threads are blocked; a healthy executor starts the
                // task in microseconds (5 s cost NIO's takeover, which fails by design, 5 s of every matrix).
                poll(upTo: .seconds(2)) { ran.value > 0 }
                if ran.value == 0 { late.increment() }
                await Task.yield()
            }
            finished.increment()
        }
        poll(upTo: wait) { started.value == 1 }
        try require(started.value == 1, "the starting task never ran within \(readable(wait))")
        poll(upTo: .seconds(120)) { finished.value == 1 || late.value > 0 }
        try require(
            late.value == 0,
            "a task started by a job that then blocked its thread did not start within 2 s, though another thread was free"
        )
        try require(finished.value == 1, "the starting task did not finish its \(rounds) rounds within 120 s")
        return ""
    }
}

/// One mark per task a check started: how often each ran (exactly once is right), and how many ran off the
/// executor's threads where it can tell.
final class Marks: Sendable {
    private let runs: [Counter]
    private let offThread = Counter()
    private let isOwnThread: (@Sendable () -> Bool)?

    init(count: Int, isOwnThread: (@Sendable () -> Bool)?) {
        runs = (0..<count).map { _ in Counter() }
        self.isOwnThread = isOwnThread
    }

    /// The body of task `index`: yields three times (each a job of its own), then marks.
    func run(_ index: Int) async {
        for _ in 0..<3 {
            if let isOwnThread, !isOwnThread() { offThread.increment() }
            await Task.yield()
        }
        runs[index].increment()
    }

    /// Waits (polling, on this thread) until every task ran or ``GlobalExecutorRules/wait`` passed, then a little
    /// longer for a second run of any; fails naming how many never ran, ran twice, or ran off the executor's threads.
    func awaitAll(_ what: String) throws {
        func ran() -> Int { runs.reduce(0) { $0 + ($1.value > 0 ? 1 : 0) } }
        poll(upTo: GlobalExecutorRules.wait) { ran() == runs.count }
        poll(upTo: .milliseconds(50)) { false }
        let never = runs.count - ran()
        let twice = runs.reduce(0) { $0 + ($1.value > 1 ? 1 : 0) }
        try require(
            never == 0,
            "\(grouped(never)) \(what) never ran within \(readable(GlobalExecutorRules.wait)); \(grouped(runs.count - never)) did"
        )
        try require(twice == 0, "\(grouped(twice)) \(what) ran more than once")
        let off = offThread.value
        try require(off == 0, "\(grouped(off)) steps \(what) ran off the executor's threads: the takeover did not take")
    }
}

/// A default actor (its jobs go to the global executor) that counts its calls without atomics and sees overlaps.
actor ExclusionProbe {
    private(set) var calls = 0
    private let inside = Atomic<Int>(0)
    private let overlapCount = Atomic<Int>(0)

    func enter() {
        if inside.add(1, ordering: .acquiringAndReleasing).newValue != 1 { overlapCount.add(1, ordering: .relaxed) }
        let before = calls
        for _ in 0..<50 { _ = inside.load(ordering: .relaxed) }  // a window for another call to land in
        calls = before + 1
        inside.subtract(1, ordering: .acquiringAndReleasing)
    }

    nonisolated var overlaps: Int { overlapCount.load(ordering: .acquiring) }
}

extension SubjectKind {
    /// Global executors (``GlobalExecutorSubject``): `ConformanceRules.rules(for: .globalExecutor)`.
    public static var globalExecutor: SubjectKind { GlobalExecutorSubject.kind }
}

extension ConformanceRule {
    /// A global-executor rule (family GE). Its check blocks the kit's check thread: it starts tasks and waits for
    /// them without being one, so it never needs the executor under test to run itself.
    static func globalExecutor(
        id: RuleID, evidence: RuleEvidence = .forced, statement: String, why: String, catches: String,
        deadline: Duration = RuleDeadline.standard,
        check: @escaping @Sendable (GlobalExecutorUnderTest) throws -> String
    ) -> ConformanceRule {
        ConformanceRule(
            id: id, family: .globalExecutor, evidence: evidence, statement: statement, why: why, catches: catches,
            about: GlobalExecutorSubject.self, gate: .every(GlobalExecutorSubject.kind), deadline: deadline,
            check: check)
    }
}
