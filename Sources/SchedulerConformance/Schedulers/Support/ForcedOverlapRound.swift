import Dispatch
import Foundation

/// One forced round of S1 or X1: a task of the subject holds it and waits for a second one, submitted while it runs,
/// to start. The second one starting is an overlap, proven. Its not starting is believed only once it could have.
///
/// A fixed wait is not enough for that. On Linux libdispatch grows a global queue's pool lazily: while its threads are
/// blocked, a monitor adds one about once a second (20 sleeping blocks here: 4 running after 1 s, 15 after 12 s). So a
/// "serial" scheduler that is really the global queue passed a 300 ms round whenever the process held that pool's
/// threads, and even a 1.5 s round once, in a full parallel test run. A global queue runs its blocks in the order they
/// were queued, so the round instead waits until a block queued on each global queue *after* the second task has run
/// (``DispatchPoolMark``): a second task that went to one of those pools has then been taken off it. The round lasts
/// ``floor`` at least, for a scheduler with threads of its own to start one, and ``grace`` after the marks ran, for a
/// task taken off a queue just before them to reach its first line on a loaded machine (where the marks run at once,
/// the floor covers the grace: it costs nothing then).
final class ForcedOverlapRound: Sendable {
    enum Outcome: Sendable, Equatable {
        /// The second task started while the first was held.
        case overlapped
        /// It did not, and could have: the pools ran what was queued after it.
        case apart
        /// The first task ran on the thread that submits the second (inline, or while that thread drove virtual
        /// time): the second cannot be submitted before the first returns, so the round shows nothing.
        case vacuous
        /// Dispatch's pools ran nothing queued after the second task within ``limit``: an overlap only through them
        /// may have found no thread.
        case poolsStalled
    }

    static let rounds = 2
    static let floor = Duration.milliseconds(300)
    static let grace = Duration.milliseconds(250)
    static let limit = Duration.seconds(20)

    private let submitter: pthread_t?
    private let mark = Shared<DispatchPoolMark?>(nil)
    private let secondStarted = Counter()
    private let result = Shared<Outcome?>(nil)

    /// `submitter`: the thread that will submit the second task, if one does (made there by default).
    init(submitter: pthread_t? = pthread_self()) { self.submitter = submitter }

    /// Called right after the call that submitted the second task returned.
    func secondSubmitted() { mark.update { $0 = DispatchPoolMark() } }

    /// Called by the second task, first thing.
    func secondStarts() { secondStarted.increment() }

    /// Called by the first task: holds it until the second starts or could have, and records which.
    func hold() {
        let outcome = holding()
        result.update { $0 = outcome }
    }

    /// What ``hold()`` found; nil before it returned.
    var outcome: Outcome? { result.value }

    private func holding() -> Outcome {
        if let submitter, pthread_equal(pthread_self(), submitter) != 0 { return .vacuous }
        let start = ContinuousClock.now
        while true {
            if secondStarted.value > 0 { return .overlapped }
            if mark.value?.caughtUp(floor: Self.floor, grace: Self.grace) == true {
                return secondStarted.value > 0 ? .overlapped : .apart
            }
            if ContinuousClock.now - start > Self.limit { return .poolsStalled }
            usleep(200)
        }
    }

    /// What a rule's verdict says about its rounds: nothing when each was forced.
    static func caveat(_ outcomes: [Outcome?]) -> String? {
        if outcomes.contains(.poolsStalled) {
            return
                "Dispatch's global pools ran nothing queued after the second task within \(limit): an overlap only through them may have found no thread"
        }
        if outcomes.contains(.vacuous) {
            return "the first task ran on the thread that submits the second: nothing could overlap it"
        }
        return nil
    }
}

/// A block queued on each of Dispatch's global queues, at the moment it is made. Once all have run, each pool has
/// taken off everything queued on it before them.
///
/// The overcommitting global queues, which serial queues target, get a thread whenever they need one; the five
/// marked here do not.
final class DispatchPoolMark: Sendable {
    private static let classes: [DispatchQoS.QoSClass] = [
        .background, .utility, .default, .userInitiated, .userInteractive,
    ]
    private let made = ContinuousClock.now
    private let pending = Counter()
    private let lastRan = Shared<ContinuousClock.Instant?>(nil)

    init() {
        for _ in Self.classes { pending.increment() }
        for qos in Self.classes {
            DispatchQueue.global(qos: qos).async { [self] in
                if pending.decrement() == 0 { lastRan.update { $0 = ContinuousClock.now } }
            }
        }
    }

    /// True once every mark ran at least `grace` ago, and `floor` has passed since they were queued.
    func caughtUp(floor: Duration, grace: Duration) -> Bool {
        guard let ran = lastRan.value else { return false }
        let now = ContinuousClock.now
        return now - ran >= grace && now - made >= floor
    }
}
