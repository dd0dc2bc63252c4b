#if Combine
    import Dispatch
    import Foundation
    import SchedulerConformance
    import SchedulerKit
    import SchedulerKitCombine
    import Synchronization

    extension ConformanceBackend {
        /// Combine's four schedulers (OpenCombine's on Linux) through ``CombineSchedulerAdapter``, judged by the same
        /// rules as the built-in backends. Declared: only what Combine's API does not offer at all (cancelling one-shot
        /// work). Where Combine offers a promise and keeps it differently, the rule runs and the matrix shows the outcome.
        public static let combine: [ConformanceBackend] = [
            combineDispatchQueue, combineOperationQueue, combineRunLoop, combineImmediate,
        ]

        /// What none of Combine's schedulers offers: cancelling one-shot work, and repeating work that outlives its
        /// handle (Combine's contract is the opposite: releasing the `AnyCancellable` cancels).
        static let combineDeclarations: [RuleID: String] = [
            .c1:
                "Combine's schedule(options:) and schedule(after:) return nothing to cancel with: a one-shot task cannot be stopped before it starts, so the adapter's handle returns false (truthfully) and the task runs.",
            .c4:
                "Combine's one-shot work cannot be cancelled, so its closure and captures are released only after it ran.",
            .c5:
                "Combine's repeating work returns an AnyCancellable, which cancels when it is released: that is Combine's contract, the opposite of this rule (checked: no tick came in 60 s once the handle was dropped, on all four schedulers). One-shot work goes on without its handle.",
        ]

        /// Every check gets a private serial `DispatchQueue` (targeting the default global queue) per scheduler.
        public static let combineDispatchQueue = ConformanceBackend(
            id: "combine-dispatch", name: "Combine DispatchQueue",
            summary:
                "Combine's DispatchQueue scheduler (OpenCombine) on a private serial queue targeting the default global queue",
            traits: CombinePeers.dispatchQueueTraits,
            declarations: combineDeclarations.merging([
                .s6:
                    "OpenCombine's scheduler is DispatchQueue.async, and libdispatch drains a serial queue for as long as it has work: with more queues re-enqueueing from their own tasks than Dispatch has threads, a task on one more queue did not start within 2 s (checked here, as for DispatchQueueScheduler)."
            ]) { $1 },
            expectedFailures: [
                .t4:
                    "Each schedule(after:) is its own DispatchQueue.asyncAfter, and Dispatch does not fire timers with one deadline in the order they were set (seen: 418 of 999 neighbours out of order)."
            ]
        ) { _ in
            ConformanceSession(makeNamedScheduler: {
                CombinePeers.dispatchQueue(name: $0, queue: DispatchQueue(label: $0, target: .global()))
            })
        }

        /// Every check gets a private `OperationQueue` with `maxConcurrentOperationCount = 1` per scheduler.
        public static let combineOperationQueue = ConformanceBackend(
            id: "combine-operationqueue", name: "Combine OperationQueue",
            summary:
                "Combine's OperationQueue scheduler (OpenCombine) on an OperationQueue with maxConcurrentOperationCount = 1",
            traits: CombinePeers.operationQueueTraits,
            declarations: combineDeclarations,
            expectedFailures: [
                .c2:
                    "Delayed work due within microseconds can be lost: OpenCombine's schedule(after:) arms the operation's ready timer before it adds the operation to the queue, so the timer can fire first, and then the queue seems never to learn that the operation is ready (seen: a delayed task whose cancel() returned false had not run 60 s later, in 2 of 6 runs of C2 beside a build and once in a run of the test suite; C2's 100 000 plain races lost nothing).",
                .t3:
                    "Delayed work due now is still an operation that waits for its own timer to become ready, so plain work added after it can start first (seen once: task 3 (plain) ran in place 1 of 300; it passed in other runs).",
                .t4:
                    "Delayed work is an operation that becomes ready at its date, each with a timer of its own; operations that become ready at one moment need not start in the order they were added (seen: 1 of 999 neighbours out of order; it does not show in every run).",
                .t6:
                    "Repeating work re-arms after each action returns (OpenCombine's DelayReadyOperation), so ticks drift by the action's duration and the fixed-rate grid is lost (seen: the median tick phase 9.9 ms into a 20 ms interval).",
            ]
        ) { _ in
            ConformanceSession(makeNamedScheduler: { name in
                let queue = OperationQueue()
                queue.name = name
                queue.maxConcurrentOperationCount = 1
                return CombinePeers.operationQueue(name: name, queue: queue)
            })
        }

        /// Every check gets one thread serving its `RunLoop`, stopped when the check ends; every scheduler of the check
        /// is an adapter on it. The bench gets one such thread per core and its lanes take them in turn, so W3's 1 000
        /// schedulers share the cores' threads as an app's run loops would.
        public static let combineRunLoop = ConformanceBackend(
            id: "combine-runloop", name: "Combine RunLoop",
            summary:
                "Combine's RunLoop scheduler (OpenCombine) on fresh threads serving their RunLoop in 1 ms slices, one "
                + "per core; lanes take the threads in turn (RunLoop.perform does not wake a sleeping loop on Linux)",
            traits: CombinePeers.runLoopTraits,
            declarations: combineDeclarations.merging([
                .r2: runLoopDoesNotWake,
                .r3: runLoopDoesNotWake,
            ]) { $1 },
            expectedFailures: [
                .t1:
                    "A Timer's fire date is a wall-clock Date, which Foundation's CFRunLoopTimerCreate turns into monotonic time from two clock reads, the monotonic one first: a thread preempted between them arms the timer early by as long as it waited (seen under load: 1 of 2 000 tasks 0.02 ms early, in 2 full test runs of 2).",
                .t3:
                    "Plain work is RunLoop.perform and delayed work a Timer; a timer due now fires when the loop wakes, before blocks performed earlier (seen: the task due now ran first of 300).",
                .t4:
                    "Each schedule(after:) is a Timer of its own, and the run loop does not fire timers with one fire date in the order they were added (seen: 434 of 999 neighbours out of order).",
                .l5:
                    "The closure of work that has run is still referenced inside Foundation's RunLoop 2 s later, so its captures are not released when it ends (seen on Linux).",
                .c6:
                    "Repeating work is a Timer, and its AnyCancellable holds the Timer, which keeps its block after invalidate(): while the handle is held, a cancelled repeating task's captures stay alive (seen on Linux: still held 2 s after cancel()). No tick runs after the cancel.",
                .n1:
                    "As for C6: the invalidated Timer keeps its block, so a cancelled repeating task's captures outlive the cancel (seen on Linux: still alive 2 s after it).",
            ]
        ) { plan in
            let threads = (0..<plan.choose(conformance: 1, benchmark: plan.cores)).map {
                RunLoopThread(name: "\(plan.prefix)-runloop-\($0)")
            }
            let next = Atomic<Int>(0)
            return ConformanceSession(
                makeNamedScheduler: { name in
                    CombinePeers.runLoop(
                        name: name, thread: threads[next.add(1, ordering: .relaxed).oldValue % threads.count])
                },
                tearDown: {
                    for thread in threads { thread.stop() }
                })
        }

        static let runLoopDoesNotWake =
            "Plain work is RunLoop.perform, which on Linux does not wake a sleeping run loop: each step waits for the loop's next wake-up (measured: 2 s with 2 s slices, 0.04 ms with a timer added beside it), here the serving thread's next 1 ms slice. With 20 ms slices, 100 000 recursive steps did not finish within 120 s."

        /// Runs everything on the caller's stack at once. Not serial (two callers run their work at the same time) and
        /// not repeating (OpenCombine runs a repeating action once and returns an empty cancellable); it claims `timed`
        /// because its API takes dates, and the matrix shows what it does with them.
        public static let combineImmediate = ConformanceBackend(
            id: "combine-immediate", name: "Combine ImmediateScheduler",
            summary: "Combine's ImmediateScheduler (OpenCombine): runs every action at once, on the caller's stack",
            traits: CombinePeers.immediateTraits,
            declarations: combineDeclarations.filter { $0.key == .c5 },  // C1 and C4 need serial
            expectedFailures: [
                .r2:
                    "Every action runs on the stack of the schedule call, so each recursive step nests one frame deeper (seen: over 64 KiB after 75 steps).",
                .r3:
                    "Every action runs on the stack of the schedule call, so the recursion overflows the stack long before 1 000 000 steps.",
                .t1:
                    "schedule(after:) runs the action at once, whatever its date (seen: 2 000 of 2 000 tasks early, the earliest by 19.99 ms).",
                .g2:
                    "schedule(after:) runs the action at once, whatever its date, so work due in 30 ms runs early (seen: 29.99 ms early).",
                .t8:
                    "schedule(after:) runs the action at once, whatever its date, so work Combine schedules for now + 20 ms starts at once (seen: 49.52 µs after now).",
            ]
        ) { _ in
            ConformanceSession(makeNamedScheduler: { CombinePeers.immediate(name: $0) })
        }
    }
#endif
