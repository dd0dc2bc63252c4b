extension Scheduler {
    /// Runs `body` on this scheduler; each call of `reschedule` schedules one more step.
    ///
    /// Recursion is unrolled into iteration: every step is a fresh task, so the stack never grows (on the immediate
    /// scheduler the trampoline runs the next step after the current one returns). Only the pending step is kept,
    /// so memory stays flat however many steps run. `reschedule` may be called later from any thread (an
    /// asynchronous callback). Two steps never run at once, also on a concurrent scheduler: there a step asked for
    /// while another is pending or running is scheduled only once that one has ended (RxSwift's recursive
    /// scheduler promises the same). Cancelling the returned handle stops the recursion within one step: a step that is
    /// running finishes, no later step starts, and `body` is released.
    @discardableResult
    public func scheduleRecursive(
        _ body: @escaping @Sendable (_ reschedule: @escaping @Sendable () -> Void) -> Void
    ) -> any Cancellable {
        let recursion = Recursion(scheduler: self, body: body)
        recursion.scheduleStep()
        return recursion
    }
}

/// The handle of a recursive schedule: whether it is cancelled, the body, and the one pending step.
final class Recursion: Cancellable {
    private struct State {
        var body: (@Sendable (_ reschedule: @escaping @Sendable () -> Void) -> Void)?
        var pendingStep: (any Cancellable)?
        /// Counts scheduled steps, so a step that ran inline (immediate scheduler) does not overwrite a later one.
        var generation: UInt64 = 0
        /// Concurrent schedulers only: a step is scheduled or running, and how many more were asked for meanwhile.
        var stepOut = false
        var stepsOwed = 0
    }
    private let scheduler: any Scheduler
    private let state: Locked<State>
    /// The scheduler may run two tasks at once, so steps are handed to it one at a time.
    private let oneStepAtATime: Bool

    init(scheduler: any Scheduler, body: @escaping @Sendable (_ reschedule: @escaping @Sendable () -> Void) -> Void) {
        self.scheduler = scheduler
        self.state = Locked(State(body: body))
        self.oneStepAtATime = !scheduler.traits.contains(.serial)
    }

    func scheduleStep() {
        guard
            let generation = state.withLock({ state -> UInt64? in
                guard state.body != nil else { return nil }
                if oneStepAtATime {
                    if state.stepOut {
                        state.stepsOwed += 1
                        return nil
                    }
                    state.stepOut = true
                }
                state.generation += 1
                return state.generation
            })
        else { return }
        let step = scheduler.schedule { [self] in runStep() }
        // The step may already have run (immediate scheduler) or the recursion may have been cancelled meanwhile.
        let cancelled = state.withLock { state in
            if state.body == nil { return true }
            if state.generation == generation { state.pendingStep = step }
            return false
        }
        if cancelled { step.cancel() }
    }

    private func runStep() {
        guard let body = state.withLock({ $0.body }) else { return }
        body { [self] in scheduleStep() }
        guard oneStepAtATime else { return }
        let owed = state.withLock { state -> Bool in
            state.stepOut = false
            guard state.stepsOwed > 0 else { return false }
            state.stepsOwed -= 1
            return true
        }
        if owed { scheduleStep() }
    }

    func cancel() -> Bool {
        let (cancelledNow, pending) = state.withLock { state -> (Bool, (any Cancellable)?) in
            guard state.body != nil else { return (false, nil) }
            state.body = nil
            return (true, state.pendingStep.take())
        }
        pending?.cancel()
        return cancelledNow
    }

    var isCancelled: Bool { state.withLock { $0.body == nil } }
}
