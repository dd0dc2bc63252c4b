import Dispatch
import Foundation
import SchedulerKit
import Synchronization

/// Every check runs against a deadline, so a scheduler that never answers gets a verdict instead of a hang: the check
/// runs on a thread of its own, and when its deadline passes the rule fails with **did not finish in N s** and what the
/// kit's threads were waiting on (a watch of the check's waits). The abandoned check is told to stop: the kit's own
/// waits end at once, and only a thread blocked inside the scheduler stays behind, holding nothing of the next rule's
/// (each rule has a session of its own).
///
/// Deadlines are generous bounds on correctness, never on speed: 90 s for most rules, above the 60 s any single wait
/// of a check allows for something to happen (the slowest of these rules takes under 2 s in a release build), and
/// 180 s for the few with loops of a million steps. `SCHEDULERKIT_CONFORMANCE_DEADLINE_SCALE` (0.1 to 10) multiplies
/// every deadline, for a slower machine or a quicker verdict. Once a subject has not finished one rule (its check is
/// stuck inside it), its other rules get ``afterAHang`` at most: a scheduler that deadlocks everywhere gets a whole
/// matrix of verdicts in minutes, and each such verdict says that its deadline was shortened and why. A wait of the
/// kit that ran out does not count: that rule has its verdict already, and a slow machine that made one rule's wait
/// run out must not fail the next rule by a deadline shortened for it (a scheduler that runs nothing at all then
/// takes a wait, up to 60 s, per rule).
public enum RuleDeadline {
    /// The deadline of a rule that does not set one.
    public static let standard: Duration = .seconds(90)
    /// The deadline of a rule whose loops run a million steps (R2, R3) or floods of 100 000 tasks on every thread.
    public static let long: Duration = .seconds(180)
    /// The deadline of the remaining rules of a backend that has already not finished one.
    public static let afterAHang: Duration = .seconds(5)

    public static let scale: Double = {
        guard let text = ProcessInfo.processInfo.environment["SCHEDULERKIT_CONFORMANCE_DEADLINE_SCALE"],
            let value = Double(text)
        else { return 1 }
        return min(10, max(0.1, value))
    }()

    /// `duration` times ``scale``.
    static func scaled(_ duration: Duration) -> Duration { duration * scale }

    /// Runs `body` on a thread of its own; false if it has not returned within `limit` (it is left to finish, or not).
    static func finishes(within limit: Duration, _ body: @escaping @Sendable () -> Void) -> Bool {
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread {
            body()
            finished.signal()
        }
        thread.start()
        return finished.wait(timeout: .now() + .nanoseconds(Int(limit.nanosecondsChecked()))) == .success
    }

    /// Runs `check` on a thread of its own and returns its outcome, or a failure once `deadline` passes (sooner,
    /// at ``afterAHang``, when `hangs` records an earlier rule of the same backend that did not finish).
    static func run(
        _ ruleID: RuleID, deadline: Duration, watch: CheckWatch, hangs: HangRecord,
        _ check: @escaping @Sendable () -> RuleOutcome
    ) -> RuleOutcome {
        let outcome = Locked<RuleOutcome?>(nil)
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread {
            let result = check()
            outcome.withLock { $0 = result }
            finished.signal()
        }
        thread.name = "conformance-check-\(ruleID)"
        // As large as a main thread's: R2 and R3 measure stack depth, and a scheduler that recurses on the stack
        // must fail them, not overflow a small one first.
        thread.stackSize = 8 << 20
        thread.start()
        let started = ContinuousClock.now
        let full = scaled(deadline)
        let short = min(full, scaled(afterAHang))
        while finished.wait(timeout: .now() + .milliseconds(200)) == .timedOut {
            let elapsed = ContinuousClock.now - started
            let earlier = hangs.first
            guard elapsed >= full || (earlier != nil && elapsed >= short) else { continue }
            watch.abandon()
            let limit = elapsed >= full ? full : short
            let shortened =
                limit < full
                ? " (shortened from \(readable(full)): this \(watch.subject.noun) did not finish \(earlier!) either)"
                : ""
            hangs.record(ruleID.rawValue)
            return .failed(detail: "did not finish in \(readable(limit))\(shortened); \(watch.describe())")
        }
        return outcome.withLock { $0 }!
    }
}

/// The rules of one backend that did not finish, first first: the others then get a short deadline.
public final class HangRecord: Sendable {
    private let rules = Locked<[String]>([])
    public init() {}
    func record(_ ruleID: String) { rules.withLock { $0.append(ruleID) } }
    var first: String? { rules.withLock { $0.first } }
}

/// What a running check is doing, for the verdict of one that did not finish, and the flag that tells an abandoned
/// check to stop. The kit's waits report here (``ConformanceContext/waitUntil(_:on:timeout:_:)`` and the thread that
/// drives virtual time); a check that is in neither is inside a call to the scheduler or its session.
final class CheckWatch: Sendable {
    /// The kind of subject the check works on, for the words of its verdict.
    let subject: SubjectKind
    private struct State {
        var started = ContinuousClock.now
        /// What the check's thread waits for, and since when.
        var waiting: (what: String, since: ContinuousClock.Instant)?
        /// The last wait that ended, and when.
        var lastWait: (what: String, ended: ContinuousClock.Instant)?
    }
    private let state = Locked(State())
    private let abandoned = Atomic<Bool>(false)
    /// Since when (monotonic ns; 0: not inside) the kit's driving thread has been inside a call to the virtual-time
    /// driver, and which. Atomics, not the mutex: the driving loop sets them on every step.
    private let drivingSince = Atomic<Int64>(0)
    private let drivingCall = Atomic<Int>(0)

    /// The calls the kit's driving threads make.
    enum DrivingCall: Int {
        case advanceByZero, advanceByOneMillisecond
        var text: String { self == .advanceByZero ? "advance(by: .zero)" : "advance(by: 1 ms)" }
    }

    init(subject: SubjectKind) { self.subject = subject }

    var isAbandoned: Bool { abandoned.load(ordering: .acquiring) }
    func abandon() { abandoned.store(true, ordering: .releasing) }

    /// Fails the check at once if its deadline has passed (the verdict has been given; nothing is left to learn).
    func stopIfAbandoned() throws {
        if isAbandoned { throw RuleFailure("abandoned after its deadline") }
    }

    func beginWait(_ what: String) { state.withLock { $0.waiting = (what, .now) } }
    func endWait() {
        state.withLock { state in
            if let waiting = state.waiting { state.lastWait = (waiting.what, .now) }
            state.waiting = nil
        }
    }

    func beginDriving(_ call: DrivingCall) {
        drivingCall.store(call.rawValue, ordering: .relaxed)
        drivingSince.store(SchedulerTime.monotonicNow().nanoseconds, ordering: .releasing)
    }
    func endDriving() { drivingSince.store(0, ordering: .releasing) }

    /// Which of the kit's threads waits on what, in a sentence.
    func describe() -> String {
        state.withLock { state in
            let now = ContinuousClock.now
            var parts: [String] = []
            let since = drivingSince.load(ordering: .acquiring)
            if since != 0 {
                let inside = SchedulerTime(nanoseconds: since).duration(to: .monotonicNow())
                let call = DrivingCall(rawValue: drivingCall.load(ordering: .relaxed)) ?? .advanceByZero
                parts.append(
                    "the kit's thread that drives virtual time has been inside \(call.text) for \(readable(inside))")
            }
            if let waiting = state.waiting {
                parts.append("the check has been waiting until \(waiting.what) for \(readable(now - waiting.since))")
            } else {
                let last =
                    state.lastWait.map {
                        " (its last wait, until \($0.what), ended \(readable($0.ended - state.started)) after the start)"
                    } ?? ""
                parts.append("the check's thread is inside a call to \(subject.inside)\(last)")
            }
            return parts.joined(separator: "; ")
        }
    }
}
