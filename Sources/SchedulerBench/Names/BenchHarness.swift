import SchedulerConformance
import SchedulerKit

/// What the bench must know of a kit entry beyond the kit's description of it (`ConformanceBackend`, which
/// holds only what the kit judges): whether it is measured, whether it notices work handed over from another thread
/// at once, and what it promises where the bench calls it. Whether its handles can stop plain work the description
/// already says (its rule C1 and its traits), so the bench reads that there.
public struct BenchHarness: Sendable, Equatable {
    /// Whether the bench measures it (a scheduler that needs a served main queue, or that shares a caller's queue,
    /// is judged but not measured).
    public var measured: Bool
    /// Work handed over from another thread starts without waiting for a poll (false for Combine's `RunLoop` on
    /// Linux, which notices new work at its serving thread's next slice).
    public var wakesPromptly: Bool
    /// What it promises where the bench calls it (from threads with no current scheduler), added to its traits.
    public var extraTraits: SchedulerTraits
    /// The lane it is reported beside, as a ratio: the primitive it wraps (`.rawDispatch`), or another scheduler it
    /// stands in for (`ConformanceBackend.testScheduler.id`).
    public var wraps: BackendID?

    public init(
        measured: Bool = true, wakesPromptly: Bool = true, extraTraits: SchedulerTraits = [], wraps: BackendID? = nil
    ) {
        self.measured = measured
        self.wakesPromptly = wakesPromptly
        self.extraTraits = extraTraits
        self.wraps = wraps
    }

    public static let standard = BenchHarness()
}

extension ConformanceBackend {
    /// Whether its handles can stop plain work before it starts, where it has `traits`: not where it declares rule C1
    /// or fails it by design (an adapter over a primitive without cancellation, whose cancel answers false), nor where
    /// plain work runs on the caller's stack (none of asynchronous, trampoline, virtual time), before a handle exists.
    func cancelsPlainWork(withTraits traits: SchedulerTraits) -> Bool {
        declarations[.c1] == nil && expectedFailures[.c1] == nil
            && !traits.isDisjoint(with: [.asynchronous, .trampoline, .virtualTime])
    }
}
