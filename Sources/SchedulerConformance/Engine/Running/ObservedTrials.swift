import Foundation
import Synchronization

/// Sequential races. An observed check (``RuleEvidence/observed(trials:trial:)``) runs its trials in rounds and
/// looks after every round, as `bench ab` looks after every pair, and stops at the first of:
/// - a round that finds the defect: the rule fails, saying in which round and after how many trials;
/// - the rule's target, the trial count its evidence states (and with it the rarest defect a pass rules out);
/// - half the rule's deadline, counted from the start of the check: the rule passes with the trials it ran and what
///   *they* rule out, and says it stopped short. The other half is left for what the check does after its rounds
///   and for a slow tear-down.
///
/// The count of trials run is what the verdict's note, the CSV's `trials` column and the report carry, so a pass on
/// a slow machine never claims the odds of a fast one.
final class ObservedTrials: Sendable {
    /// How long the rounds may run, from ``started``.
    let budget: Duration
    let started: ContinuousClock.Instant
    private let state = Atomic<Int>(-1)  // trials run so far; -1 until a round ends
    private let target = Atomic<Int>(0)

    init(deadline: Duration) {
        self.budget = deadline / 2
        self.started = .now
    }

    /// The trials run by ``observe(_:inRoundsOf:_:)`` (all its series together), or nil if the
    /// check ran none that way.
    var count: Int? {
        let value = state.load(ordering: .acquiring)
        return value < 0 ? nil : value
    }

    /// What the rounds stopped short of, or nil if they reached their target.
    var shortOf: Int? {
        guard let count else { return nil }
        let target = target.load(ordering: .acquiring)
        return count < target ? target : nil
    }

    /// Starts a series of `target` more trials (a check may run several, as C2 does for plain and delayed work; they
    /// add up). Returns the trials of the series before it.
    private func begin(target: Int) -> Int {
        self.target.add(target, ordering: .acquiringAndReleasing)
        let before = count ?? 0
        state.store(before, ordering: .releasing)
        return before
    }

    private func record(_ trials: Int) { state.store(trials, ordering: .releasing) }

    private var budgetSpent: Bool { ContinuousClock.now - started >= budget }
}

extension ObservedTrials {
    /// Records `trials` that a check ran at once, not in rounds (M1's programs), so that its pass counts what ran.
    func ran(_ trials: Int) {
        let before = begin(target: trials)
        record(before + trials)
    }

    /// Runs `round` on consecutive ranges of at most `size` trials, `0..<size`, `size..<2 × size`, …, until `target`
    /// trials ran, a round throws (the failure names the round), or half the rule's deadline is spent
    /// (``ObservedTrials``). Returns the trials run. `round` must check its own trials before it returns.
    @discardableResult
    func observe(_ target: Int, inRoundsOf size: Int, _ round: (Range<Int>) throws -> Void) throws -> Int {
        precondition(size > 0 && target > 0)
        let before = begin(target: target)
        var done = 0
        var index = 0
        while done < target {
            let trials = done..<min(target, done + size)
            index += 1
            do {
                try round(trials)
            } catch let failure as RuleFailure {
                record(before + trials.upperBound)
                let rounds = (target + size - 1) / size
                throw RuleFailure(
                    "\(failure.detail) (in round \(index) of \(rounds), trials \(grouped(trials.lowerBound + 1))–"
                        + "\(grouped(trials.upperBound)))")
            }
            done = trials.upperBound
            record(before + done)
            if budgetSpent { break }
        }
        return done
    }
}
