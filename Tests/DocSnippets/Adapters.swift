import SchedulerConformance
import SchedulerKit

// The worked examples of `Docs/WritingAScheduler.md`, "Adapting another library's scheduler", compiled here and
// judged by a few rules in DocSnippetsTests.

// snippet: the start gate
/// Decides once, under a lock, whether a task starts or is cancelled; holds the work until then, never the handle.
final class StartGate: Cancellable {
    private let state: Locked<(@Sendable () -> Void)?>
    private let cancelled = Locked(false)
    init(_ work: @escaping @Sendable () -> Void) { state = Locked(work) }

    /// The work, if no cancel came first; nil afterwards.
    func start() -> (@Sendable () -> Void)? {
        state.withLock { work in
            defer { work = nil }
            return work
        }
    }

    func cancel() -> Bool {
        let won = state.withLock { work in
            defer { work = nil }
            return work != nil
        }
        if won { cancelled.withLock { $0 = true } }
        return won
    }
    var isCancelled: Bool { cancelled.withLock { $0 } }
}

/// The library's queue as a SchedulerKit scheduler. Its `dispose()` is best effort, so the adapter decides itself
/// whether a task starts (`StartGate`), and disposes only to free the library's resources early.
final class PeerQueueAdapter: SchedulerKit.Scheduler {
    let name: String
    private let peer: PeerSerialQueue
    init(name: String) {
        self.name = name
        peer = PeerSerialQueue(label: name)
    }
    var traits: SchedulerTraits { [.serial, .asynchronous, .setsCurrent] }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let gate = StartGate(work)
        // The action holds the gate, never the handle: handle → disposable → action → handle would be a cycle
        // that keeps every task's captures alive (L5 fails with no other hint).
        let disposable = peer.schedule { [self] in
            if let work = gate.start() { Schedulers.performAsCurrent(self, work) }
        }
        return PeerHandle(gate: gate, disposable: disposable)
    }
}

struct PeerHandle: Cancellable {
    let gate: StartGate
    let disposable: PeerDisposable
    func cancel() -> Bool {
        guard gate.cancel() else { return false }
        disposable.dispose()
        return true
    }
    var isCancelled: Bool { gate.isCancelled }
}
// snippet end

// snippet: the best-effort handle
/// When the adapter cannot decide start-or-cancel itself, the library's cancel is all it has: it cannot promise that
/// the work will never run, so it answers false (C2: true only when the task will never run).
struct BestEffortHandle: Cancellable {
    let disposable: PeerDisposable
    func cancel() -> Bool {
        disposable.dispose()
        return false
    }
    var isCancelled: Bool { false }
}
// snippet end

// snippet: the virtual clock in seconds
/// The library's virtual time (seconds as a Double) as a `VirtualTimeDriver`. `run(maxSteps:)` answers with
/// SchedulerKit's `VirtualTimeRunOutcome`, named with its module where the library has a `TestScheduler` too.
final class PeerVirtualTimeAdapter: VirtualTimeDriver {
    let name = "peer-virtual-time"
    private let peer = PeerVirtualTimeScheduler()
    static let peerTraits: SchedulerTraits = [.serial, .timed, .virtualTime, .setsCurrent]
    var traits: SchedulerTraits { Self.peerTraits }

    var now: SchedulerTime { SchedulerTime(nanoseconds: Int64((peer.clock * 1e9).rounded())) }
    private func seconds(_ time: SchedulerTime) -> Double { Double(time.nanoseconds) / 1e9 }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable { schedule(at: now, work) }

    func schedule(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let gate = StartGate(work)
        let disposable = peer.schedule(after: seconds(deadline)) { [self] in
            if let work = gate.start() { Schedulers.performAsCurrent(self, work) }
        }
        return PeerHandle(gate: gate, disposable: disposable)
    }

    func schedule(
        at start: SchedulerTime, every interval: Duration, leeway: Duration, _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        preconditionFailure("not repeating: the traits do not claim it")
    }

    func advance(by duration: Duration) { advance(to: now + duration) }
    /// Never backwards (V5): a target already past leaves the clock where it is.
    func advance(to target: SchedulerTime) { peer.advance(to: seconds(max(target, now))) }
    func step() -> Bool { peer.step() }

    func run(maxSteps: Int) -> SchedulerKit.VirtualTimeRunOutcome {
        let (ran, left) = peer.run(limit: maxSteps)
        return left == 0 ? .drained(steps: ran) : .stoppedEarly(steps: ran, pending: left)
    }
}
// snippet end

// snippet: a scheduler confined to one thread
extension ConformanceBackend {
    /// The library's test scheduler where it asserts that one thread uses it.
    static let confinedPeer = ConformanceBackend(
        name: "ConfinedPeer", traits: PeerVirtualTimeAdapter.peerTraits.union(.threadConfined),
        pendingWorkOnRelease: .dropped
    ) {
        ConformanceSession(makeScheduler: { PeerVirtualTimeAdapter() })
    }
}
// snippet end
