import SchedulerConformance
import SchedulerKit

/// A virtual clock with one chosen defect, for the clock rules' negative controls. With no defect it keeps every
/// rule: its sleepers run as tasks of a ``TestScheduler`` (its executor), and an advance wakes the due sleepers one at
/// a time in (deadline, sleep order), with now at each one's deadline, running each woken sleeper before the next.
final class ControlClock: Clock, Sendable {
    typealias Instant = SchedulerClock.Instant

    struct Defects: OptionSet, Sendable {
        let rawValue: Int
        /// Wakes a sleeper due up to 1 ms after an advance's target, in that advance (CL1).
        static let wakesEarly = Defects(rawValue: 1 << 0)
        /// A deadline at or before now waits for the next advance (CL2, swift-clocks#22).
        static let pastWaitsForAdvance = Defects(rawValue: 1 << 1)
        /// Every 1 000th reading of now is 1 µs behind (CL3).
        static let stepsBack = Defects(rawValue: 1 << 2)
        /// Equal deadlines wake last-in first-out (CL4).
        static let reversesTies = Defects(rawValue: 1 << 3)
        /// Moves now to the advance's target before waking anyone (CL5).
        static let jumpsToTarget = Defects(rawValue: 1 << 4)
        /// A sleep ignores cancellation and waits for its deadline (CL6).
        static let ignoresCancellation = Defects(rawValue: 1 << 5)
        /// The driver's settle also wakes what is due now, as an advance by nothing does on a clock over
        /// `TestScheduler`: with `pastWaitsForAdvance`, a check that settles cannot see the wait (CL2).
        static let settleWakesDue = Defects(rawValue: 1 << 6)
        /// A cancelled sleep throws, but its entry stays queued with its deadline, dead (CL8).
        static let keepsCancelledSleepers = Defects(rawValue: 1 << 7)
    }

    private struct Sleeper {
        let deadline: Int64
        let order: Int
        /// nil: a dead entry, whose sleeper was cancelled (`keepsCancelledSleepers`).
        let continuation: CheckedContinuation<Void, any Error>?
    }

    private struct State {
        var now: Int64 = 1_000_000_000  // a second in, so that stepping back has room
        var reads = 0
        var nextOrder = 0
        var sleepers: [Sleeper] = []
    }

    let defects: Defects
    /// Runs the sleepers' jobs: the driver's executor.
    let jobs = TestScheduler(name: "control-clock")
    private let state = Locked(State())

    init(_ defects: Defects = []) { self.defects = defects }

    var driver: VirtualClockDriver {
        VirtualClockDriver(
            executor: SchedulerTaskExecutor(jobs),
            settle: {
                self.jobs.advance(by: .zero)
                if self.defects.contains(.settleWakesDue) { self.advance(by: .zero) }
            },
            advance: { self.advance(by: $0) }, runUntilIdle: { self.runUntilIdle() })
    }

    var now: Instant {
        let stepsBack = defects.contains(.stepsBack)
        return state.withLock { state in
            state.reads += 1
            let back: Int64 = stepsBack && state.reads % 1_000 == 0 ? 1_000 : 0
            return Instant(SchedulerTime(nanoseconds: state.now - back))
        }
    }

    var minimumResolution: Duration { .nanoseconds(1) }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        let due = deadline.time.nanoseconds
        if !defects.contains(.pastWaitsForAdvance) && due <= state.withLock({ $0.now }) { return }
        let order = state.withLock { state in
            state.nextOrder += 1
            return state.nextOrder
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                state.withLock { $0.sleepers.append(Sleeper(deadline: due, order: order, continuation: continuation)) }
                if Task.isCancelled { cancel(order) }
            }
        } onCancel: {
            cancel(order)
        }
    }

    private func cancel(_ order: Int) {
        guard !defects.contains(.ignoresCancellation) else { return }
        let sleeper = state.withLock { state -> Sleeper? in
            guard let index = state.sleepers.firstIndex(where: { $0.order == order }) else { return nil }
            let sleeper = state.sleepers.remove(at: index)
            if defects.contains(.keepsCancelledSleepers) {
                state.sleepers.append(Sleeper(deadline: sleeper.deadline, order: sleeper.order, continuation: nil))
            }
            return sleeper
        }
        sleeper?.continuation?.resume(throwing: CancellationError())
    }

    func advance(by duration: Duration) {
        let target = state.withLock { $0.now } + duration.nanosecondsChecked()
        let reach = target + (defects.contains(.wakesEarly) ? 1_000_000 : 0)
        if defects.contains(.jumpsToTarget) { state.withLock { $0.now = target } }
        while let sleeper = nextDue(by: reach, target: target) {
            sleeper.continuation?.resume()
            jobs.advance(by: .zero)  // the woken sleeper runs now, before time moves on
        }
        state.withLock { $0.now = max($0.now, target) }
        jobs.advance(by: .zero)
    }

    /// Advances to each remaining deadline in turn until no sleeper is left.
    func runUntilIdle() {
        while let last = state.withLock({ state in state.sleepers.map(\.deadline).max().map { $0 - state.now } }) {
            advance(by: .nanoseconds(max(0, last)))
        }
    }

    /// Takes the next sleeper due by `reach`, moving now to its deadline (never past `target`).
    private func nextDue(by reach: Int64, target: Int64) -> Sleeper? {
        let lifo = defects.contains(.reversesTies)
        return state.withLock { state in
            let due = state.sleepers.indices.filter { state.sleepers[$0].deadline <= reach }
            guard
                let index = due.min(by: { a, b in
                    let (x, y) = (state.sleepers[a], state.sleepers[b])
                    return x.deadline != y.deadline
                        ? x.deadline < y.deadline : (lifo ? x.order > y.order : x.order < y.order)
                })
            else { return nil }
            let sleeper = state.sleepers.remove(at: index)
            state.now = max(state.now, min(sleeper.deadline, target))
            return sleeper
        }
    }
}

/// A real clock that ends every sleep 5 ms early (CL1's real-time negative control).
struct EarlyContinuousClock: Clock {
    let base = ContinuousClock()
    var now: ContinuousClock.Instant { base.now }
    var minimumResolution: Duration { base.minimumResolution }
    func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
        try await base.sleep(until: deadline - .milliseconds(5), tolerance: tolerance)
    }
}
