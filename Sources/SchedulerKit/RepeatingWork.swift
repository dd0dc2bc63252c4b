import Synchronization

/// Repeating work and its handle. State, one atomic byte: `idle ⇄ running` per tick; `cancel()` moves
/// `idle → cancelled` or `running → runningCancelled`. Either way no later tick starts, so `cancel()` returns
/// true exactly once. The closure is dropped by whoever ends the repetition (the canceller, or the tick that
/// observes the cancel when it returns), and `onEnd` lets the backend tear down its timer.
// @unchecked Sendable: `work` and `onEnd` are written before the handle is published, then read only by the side
// that holds the `running` state or wins the transition to `cancelled`; the atomic orders those accesses.
public final class RepeatingWork: Cancellable, @unchecked Sendable {
    private enum State: UInt8 { case idle, running, cancelled, runningCancelled }
    private let state = Atomic<UInt8>(State.idle.rawValue)
    private var work: (@Sendable () -> Void)?
    private var onEnd: (@Sendable () -> Void)?

    public init(_ work: @escaping @Sendable () -> Void) {
        self.work = work
    }

    /// Set once by the backend before the handle is published; called once when the repetition ends.
    public func setOnEnd(_ onEnd: @escaping @Sendable () -> Void) {
        self.onEnd = onEnd
    }

    @discardableResult
    public func cancel() -> Bool {
        while true {
            let current = state.load(ordering: .acquiring)
            switch State(rawValue: current)! {
            case .idle:
                if state.compareExchange(
                    expected: current, desired: State.cancelled.rawValue,
                    ordering: .acquiringAndReleasing
                ).exchanged {
                    end()
                    return true
                }
            case .running:
                if state.compareExchange(
                    expected: current, desired: State.runningCancelled.rawValue,
                    ordering: .acquiringAndReleasing
                ).exchanged {
                    return true
                }
            case .cancelled, .runningCancelled:
                return false
            }
        }
    }

    public var isCancelled: Bool {
        let s = state.load(ordering: .acquiring)
        return s == State.cancelled.rawValue || s == State.runningCancelled.rawValue
    }

    /// What one call of ``runTick()`` did.
    public enum Tick: Sendable, Equatable {
        /// Cancelled before the tick could start: nothing ran.
        case skipped
        /// The tick ran and the repetition goes on: arm the next one.
        case ran
        /// The tick ran and was the last: it was cancelled while it ran (from inside, or from another thread).
        case ranLast

        /// The work ran (a step of a virtual clock, for one).
        public var ran: Bool { self != .skipped }
        /// The next tick must be armed.
        public var goesOn: Bool { self == .ran }
    }

    /// Runs one tick unless cancelled, and says whether it ran and whether the repetition goes on; the two differ
    /// for a tick that cancels itself. The caller sets the current scheduler and never runs two ticks of one handle
    /// at once.
    @discardableResult
    public func runTick() -> Tick {
        guard
            state.compareExchange(
                expected: State.idle.rawValue, desired: State.running.rawValue,
                ordering: .acquiringAndReleasing
            ).exchanged
        else { return .skipped }
        work?()
        if state.compareExchange(
            expected: State.running.rawValue, desired: State.idle.rawValue,
            ordering: .acquiringAndReleasing
        ).exchanged {
            return .ran
        }
        state.store(State.cancelled.rawValue, ordering: .releasing)
        end()
        return .ranLast
    }

    private func end() {
        work = nil
        onEnd.take()?()
    }
}
