import Dispatch
import Foundation
import SchedulerKit
import Synchronization
import ToolSupport

extension RuleFamily {
    public static let lifecycle = RuleFamily("L", title: "Lifecycle")
}

extension RuleID {
    public static let l1 = RuleID(newRuleOf: .lifecycle, number: 1)
    public static let l2 = RuleID(newRuleOf: .lifecycle, number: 2)
    public static let l3 = RuleID(newRuleOf: .lifecycle, number: 3)
    public static let l4 = RuleID(newRuleOf: .lifecycle, number: 4)
    public static let l5 = RuleID(newRuleOf: .lifecycle, number: 5)
    public static let l6 = RuleID(newRuleOf: .lifecycle, number: 6)
    public static let l7 = RuleID(newRuleOf: .lifecycle, number: 7)
}

/// L: lifecycle (shutdown and release).
enum LifecycleRules {
    static let shutdownRaceSubmissions = 10_000  // L1's and L6's, from 4 threads racing one shutdown
    static let all: [ConformanceRule] = [
        exactlyOnce, refusedAfterShutdown, idempotentShutdown, farTimers, releasedWithPending,
        nothingStartsAfterShutdown, repetitionsEnd,
    ]

    static func makeShutdownScheduler(_ context: ConformanceContext) throws -> any ShutdownScheduler {
        let scheduler = context.makeScheduler()
        guard let shutdown = scheduler as? any ShutdownScheduler else {
            throw RuleFailure("\(type(of: scheduler)) claims the shutdown trait but is not a ShutdownScheduler")
        }
        return shutdown
    }

    /// Calls `shutdown()` on another thread, so a hang fails the check instead of the whole run; returns its duration.
    static func shutDown(_ scheduler: any ShutdownScheduler, timeout: Duration = .seconds(30)) throws -> Duration {
        let done = DispatchSemaphore(value: 0)
        let started = ContinuousClock.now
        Thread {
            scheduler.shutdown()
            done.signal()
        }.start()
        try require(wait(done, timeout: timeout), "shutdown() did not return within \(readable(timeout))")
        return ContinuousClock.now - started
    }

    static let exactlyOnce = ConformanceRule(
        id: .l1, family: .lifecycle,
        evidence: .observed(
            trials: shutdownRaceSubmissions,
            trial: "submissions from 4 threads around one shutdown that might be lost or run twice"),
        statement:
            "Every accepted task ends exactly once, as ran or as cancelled, also when shutdown comes in the middle of 10 000 submissions from 4 threads.",
        why:
            "Work accepted and then lost at shutdown leaves callers waiting forever: every accepted task must end exactly once, as ran or as cancelled.",
        catches:
            "NIOThreadPool's documentation says all tasks will be run while its code hands queued items .cancelled (seen in its source); SwiftNIO's testWeFailOutstandingScheduledTasksOnELShutdown checks the failing path.",
        requires: .shutdown
    ) { context in
        let scheduler = try makeShutdownScheduler(context)
        let timed = scheduler as? any TimedScheduler
        let producers = 4
        let perProducer = shutdownRaceSubmissions / producers
        let total = perProducer * producers
        let runs = Shared([Int](repeating: 0, count: total))
        let handles = Shared([(any Cancellable)?](repeating: nil, count: total))
        // The producer that makes this submission shuts the scheduler down while the others keep submitting, so
        // shutdown lands in the middle of the stream however the threads are scheduled.
        let shutdownAfter = Int.random(in: 1..<total / 2)
        let submitted = Counter()
        let shutdownReturned = DispatchSemaphore(value: 0)
        Producers.run(producers) { producer in
            for offset in 0..<perProducer {
                let index = producer * perProducer + offset
                let work: @Sendable () -> Void = { runs.update { $0[index] += 1 } }
                let handle: any Cancellable
                if let timed, offset % 2 == 1 {
                    handle = timed.schedule(at: timed.now + .microseconds(Int64(offset % 50) * 100), work)
                } else {
                    handle = scheduler.schedule(work)
                }
                handles.update { $0[index] = handle }
                if submitted.increment() == shutdownAfter {
                    scheduler.shutdown()
                    shutdownReturned.signal()
                }
            }
        }
        try require(wait(shutdownReturned), "shutdown() did not return within 30 s")
        usleep(50_000)
        let ranCounts = runs.value
        let all = handles.value.compactMap { $0 }
        if let twice = ranCounts.firstIndex(where: { $0 > 1 }) {
            throw RuleFailure("task \(grouped(twice + 1)) ran \(ranCounts[twice]) times")
        }
        var ran = 0
        var cancelled = 0
        var neither = 0
        var both = 0
        for (index, handle) in all.enumerated() {
            switch (ranCounts[index] == 1, handle.isCancelled) {
            case (true, false): ran += 1
            case (false, true): cancelled += 1
            case (false, false): neither += 1
            case (true, true): both += 1
            }
        }
        try require(
            neither == 0 && both == 0,
            "of \(grouped(total)) tasks \(grouped(ran)) ran, \(grouped(cancelled)) were cancelled, \(grouped(neither)) neither ran nor were cancelled, \(grouped(both)) both (shutdown after \(grouped(shutdownAfter)) submissions)"
        )
        return
            "shutdown after \(grouped(shutdownAfter)) submissions: \(grouped(ran)) ran, \(grouped(cancelled)) cancelled"
    }

    static let refusedAfterShutdown = ConformanceRule(
        id: .l2, family: .lifecycle,
        statement:
            "After shutdown, schedule returns an already-cancelled handle at once and the work never runs; nothing is silently dropped.",
        why:
            "Scheduling on a shut-down scheduler must be answered, not ignored: an already-cancelled handle says \"never\" at once.",
        catches: "Work silently dropped after shutdown.",
        requires: .shutdown
    ) { context in
        let scheduler = try makeShutdownScheduler(context)
        _ = try shutDown(scheduler)
        try require(scheduler.isShutDown, "isShutDown is false after shutdown() returned")
        let ran = Counter()
        var handles = [("plain", scheduler.schedule { ran.increment() })]
        if let timed = scheduler as? any TimedScheduler {
            handles.append(("delayed", timed.schedule(at: timed.now + .milliseconds(1)) { ran.increment() }))
            if context.backend.traits.contains(.repeating) {
                handles.append(
                    ("repeating", timed.schedule(at: timed.now, every: .milliseconds(1)) { ran.increment() }))
            }
        }
        let notCancelled = handles.filter { !$0.1.isCancelled }.map(\.0)
        try require(
            notCancelled.isEmpty,
            "after shutdown, \(notCancelled.joined(separator: ", ")) work got a handle that is not cancelled")
        try require(handles.allSatisfy { !$0.1.cancel() }, "cancel() of a refused handle returned true")
        usleep(20_000)
        try require(ran.value == 0, "\(ran.value) tasks scheduled after shutdown ran")
        return ""
    }

    static let idempotentShutdown = ConformanceRule(
        id: .l3, family: .lifecycle,
        statement:
            "shutdown is idempotent, and calling it from one of the scheduler's own tasks returns without deadlock.",
        why: "Shutdown is called from clean-up paths that may run on the scheduler itself, and more than once.",
        catches: "SwiftNIO's testCallingSyncShutdownGracefullyMultipleTimesShouldNotHang guards the same.",
        requires: .shutdown
    ) { context in
        let scheduler = try makeShutdownScheduler(context)
        let returned = DispatchSemaphore(value: 0)
        scheduler.schedule {
            scheduler.shutdown()
            returned.signal()
        }
        try require(wait(returned), "shutdown() called from the scheduler's own task did not return within 30 s")
        try require(scheduler.isShutDown, "isShutDown is false after shutdown() from a task")
        let again = try shutDown(scheduler)
        let thrice = try shutDown(scheduler)
        return "repeat calls took \(readable(again)) and \(readable(thrice))"
    }

    static let farTimers = ConformanceRule(
        id: .l4, family: .lifecycle,
        statement:
            "Far-future timers do not delay shutdown, and afterwards the scheduler and every capture of its pending work are freed.",
        why: "A timer due in a day must not keep a pool, its threads and the captures alive after shutdown.",
        catches:
            "SwiftNIO's testShutdownWhileScheduledTasksNotReady and testScheduleRepeatedTaskToNotRetainEventLoop guard the same.",
        requires: [.shutdown, .timed]
    ) { context in
        let captures = LiveCount()
        let released = WeakBox()
        let took: Duration
        do {
            let scheduler = try makeShutdownScheduler(context)
            guard let timed = scheduler as? any TimedScheduler else { throw RuleFailure("not a TimedScheduler") }
            released.set(scheduler)
            for _ in 0..<100 {
                let capture = captures.make()
                timed.schedule(at: timed.now + .seconds(3_600)) { capture.touch() }
            }
            if context.backend.traits.contains(.repeating) {
                let capture = captures.make()
                timed.schedule(at: timed.now + .seconds(3_600), every: .seconds(3_600)) { capture.touch() }
            }
            took = try shutDown(scheduler)
        }
        try require(took < .seconds(5), "shutdown() with timers due in an hour took \(readable(took))")
        poll(upTo: .seconds(2)) { captures.live == 0 && released.isNil }
        try require(
            captures.live == 0, "\(captures.live) of the far timers' captures were still alive 2 s after shutdown")
        try require(
            released.isNil, "the scheduler was still alive 2 s after shutdown and its last reference was dropped")
        return "shutdown took \(readable(took))"
    }

    static let releasedWithPending = ConformanceRule(
        id: .l5, family: .lifecycle,
        statement:
            "Releasing a scheduler with pending work never crashes or leaks: its work either runs or is dropped as the backend declares, and then the scheduler and captures are freed (where work is dropped, also those of a repetition that has not ticked yet).",
        why:
            "A scheduler released without a shutdown must neither crash nor leak threads, and what becomes of its pending work must be said.",
        catches:
            "RAC's test scheduler runs everything in dealloc while combine-schedulers drops it: both are fine, neither was declared."
    ) { context in
        let captures = LiveCount()
        let ran = Counter()
        let released = WeakBox()
        let probe = context.makeScheduler()
        let singleton = probe === context.makeScheduler()
        let tasks: Int
        let policy = context.backend.pendingWorkOnRelease
        do {
            let scheduler = context.makeScheduler()
            if !singleton { released.set(scheduler) }
            let capture = captures.make()
            for _ in 0..<100 {
                scheduler.schedule {
                    capture.touch()
                    ran.increment()
                }
            }
            var count = 100
            if let timed = scheduler as? any TimedScheduler {
                for _ in 0..<10 {
                    timed.schedule(at: timed.now + .milliseconds(20)) {
                        capture.touch()
                        ran.increment()
                    }
                }
                count += 10
                // A repetition that has not ticked yet is pending work too. Only where pending work is dropped: where
                // it runs, a repetition would keep its scheduler for ever, as it should.
                if policy == .dropped, context.backend.traits.contains(.repeating) {
                    timed.schedule(at: timed.now + .seconds(3_600), every: .seconds(1), leeway: .zero) {
                        capture.touch()
                        ran.increment()
                    }
                }
            }
            tasks = count
        }
        switch policy {
        case .runs:
            poll(upTo: .seconds(10)) { ran.value == tasks }
            try require(
                ran.value == tasks,
                "declared that pending work runs, but \(ran.value) of \(tasks) tasks ran within 10 s of the release")
        case .dropped:
            usleep(50_000)
            try require(ran.value == 0, "declared that pending work is dropped, but \(ran.value) of \(tasks) tasks ran")
        }
        poll(upTo: .seconds(2)) { captures.live == 0 && released.isNil }
        try require(
            captures.live == 0,
            "the pending work's capture was still alive 2 s after the work \(policy == .runs ? "ran" : "was dropped")")
        try require(released.isNil, "the released scheduler was still alive 2 s later")
        return "pending work \(policy.rawValue)" + (singleton ? "; shared instance, never released" : "")
    }
}

/// L6: nothing starts once shutdown has begun, and every task of a batch a worker took settles.
extension LifecycleRules {
    static let nothingStartsAfterShutdown = ConformanceRule(
        id: .l6, family: .lifecycle,
        evidence: .mixed(
            forced: "100 tasks queued behind a task that lasts until shutdown has begun",
            trials: shutdownRaceSubmissions, trial: "submissions from 4 threads around a shutdown that might start late"
        ),
        statement:
            "Once shutdown() has begun, no task that has not started starts, also one in a batch a worker has already taken: of 100 tasks queued behind a task that lasts until shutdown, and 10 000 more from 4 threads, at most one per thread starts after isShutDown turns true (one a worker was already starting), and each of the 100 ends as ran or as cancelled, never neither.",
        why:
            "Shutdown is how a caller stops work it no longer wants (a closed connection, a torn-down screen); tasks that still start afterwards touch state that is being torn down.",
        catches:
            "ThreadPool finished the batch of up to 128 tasks a worker had taken: 101 to 246 tasks started after shutdown() in 3 of 5 trials (negative control: shutdown lets queued work run). A worker that takes the next task of its batch and only then sees shutdown, and drops it (negative control).",
        requires: .shutdown
    ) { context in
        let scheduler = try makeShutdownScheduler(context)
        let startedLate = Shared([UInt: Int]())
        let record: @Sendable () -> Void = {
            if scheduler.isShutDown { startedLate.update { $0[currentThreadID(), default: 0] += 1 } }
        }
        // A holder keeps the scheduler busy until the gate and the tasks behind it are queued, so they go into one
        // batch; the gate then lasts until shutdown has begun.
        let queued = Atomic<Bool>(false)
        let gateStarted = Atomic<Bool>(false)
        scheduler.schedule { poll(upTo: .seconds(30)) { queued.load(ordering: .acquiring) } }
        scheduler.schedule {
            gateStarted.store(true, ordering: .releasing)
            poll(upTo: .seconds(30)) { scheduler.isShutDown }
        }
        let behind = 100
        let ranBehind = Shared([Bool](repeating: false, count: behind))
        let handlesBehind = (0..<behind).map { index in
            scheduler.schedule {
                ranBehind.update { $0[index] = true }
                record()
            }
        }
        queued.store(true, ordering: .releasing)
        poll(upTo: .seconds(30)) { gateStarted.load(ordering: .acquiring) }
        try require(gateStarted.load(ordering: .acquiring), "the gate task did not start within 30 s")
        let shutdownReturned = DispatchSemaphore(value: 0)
        Producers.run(4) { producer in
            for index in 0..<2_500 {
                scheduler.schedule(record)
                if producer == 0 && index == 1_000 {
                    scheduler.shutdown()
                    shutdownReturned.signal()
                }
            }
        }
        try require(wait(shutdownReturned), "shutdown() did not return within 30 s")
        usleep(20_000)
        // Each task of the taken batch settles: a worker that takes one more from the batch after shutdown has begun
        // must run it or cancel it, never drop it (its caller would wait for ever).
        let ran = ranBehind.value
        let unsettled = (0..<behind).filter { ran[$0] == handlesBehind[$0].isCancelled }
        try require(
            unsettled.isEmpty,
            "of the \(behind) tasks queued behind the one that lasted until shutdown, \(unsettled.count) neither ran nor were cancelled, or both (the first: task \(unsettled.first.map { $0 + 1 } ?? 0))"
        )
        let late = startedLate.value
        let worst = late.values.max() ?? 0
        try require(
            worst <= 1,
            "\(late.values.reduce(0, +)) tasks started after shutdown had begun, up to \(worst) on one thread (\(late.count) threads)"
        )
        return "\(late.values.reduce(0, +)) started as shutdown began, on \(late.count) threads"
    }
}

/// L7: a repetition ends with its scheduler.
extension LifecycleRules {
    static let repetitionsEnd = ConformanceRule(
        id: .l7, family: .lifecycle,
        statement:
            "Shutdown ends every repetition: its handle says cancelled, it never ticks again, and its closure is freed within 2 s, also when its tick had come due and was queued behind tasks that kept every thread busy at the shutdown.",
        why:
            "A repetition is accepted work too: one that outlives its scheduler's shutdown says it is still live for ever and keeps whatever its closure captured, though no tick will ever run.",
        catches:
            "ThreadPool cancelled the queued tick but never the repetition: its handle said isCancelled == false for ever and kept its closure (5 of 5 runs; negative control: a pool that still does so).",
        requires: [.shutdown, .repeating]
    ) { context in
        let scheduler = try makeShutdownScheduler(context)
        guard let timed = scheduler as? any TimedScheduler else {
            throw RuleFailure("\(type(of: scheduler)) claims the repeating trait but is not a TimedScheduler")
        }
        // Every thread the scheduler may run a task on is kept busy, so a tick that comes due queues behind them.
        let width = (scheduler as? any ConcurrentScheduler)?.width ?? 1
        let busy = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        for _ in 0..<width {
            scheduler.schedule {
                busy.signal()
                _ = wait(release, timeout: .seconds(60))
            }
        }
        for _ in 0..<width { try require(wait(busy), "a task that keeps a thread busy did not start within 30 s") }
        let ticks = Counter()
        let captures = LiveCount()
        let handle: any Cancellable
        do {
            let capture = captures.make()
            handle = timed.schedule(at: timed.now, every: .milliseconds(1), leeway: .zero) {
                capture.touch()
                ticks.increment()
            }
        }
        usleep(20_000)  // the first tick is due, and its task waits behind the busy ones
        // Shut down on another thread: a shutdown that waits for running tasks would wait for the busy ones, which
        // are released once it has begun (it says isShutDown) or after 2 s.
        let returned = DispatchSemaphore(value: 0)
        Thread {
            scheduler.shutdown()
            returned.signal()
        }.start()
        poll(upTo: .seconds(2)) { scheduler.isShutDown }
        for _ in 0..<width { release.signal() }
        try require(wait(returned), "shutdown() did not return within 30 s of the busy tasks' release")
        poll(upTo: .seconds(2)) { handle.isCancelled && captures.live == 0 }
        try require(
            handle.isCancelled, "a repetition's handle said isCancelled == false 2 s after its scheduler shut down")
        try require(ticks.value == 0, "a repetition ticked \(ticks.value) time(s) after its scheduler shut down")
        try require(captures.live == 0, "a repetition's closure was still alive 2 s after its scheduler shut down")
        return ""
    }
}
