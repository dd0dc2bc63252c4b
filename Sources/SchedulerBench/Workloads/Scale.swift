/// How big a run is: `full` for the reference run, `quick` for CI (under a minute), `smoke` for the tests.
public enum Scale: String, Sendable, CaseIterable {
    case full, quick, smoke

    /// Picks the size of a workload parameter for this scale.
    ///
    /// A full size is one repetition of the workload: a round repeats it until the round has lasted its minimum
    /// (``RoundPolicy``), so the fast lanes fill a round with many repetitions whatever the size. What the size decides
    /// is how long the slowest lane's single repetition lasts, and so the run: at 200 000 tasks (W1) and 20 000 round
    /// trips (W4, W12, W13), OperationQueue's and NIO's repetitions lasted 0.6–1 s, 6–10 times the 100 ms round, about
    /// a third of a full run's 737 s. The sizes now keep them near 150–250 ms.
    func size(full: Int, quick: Int, smoke: Int) -> Int {
        switch self {
        case .full: full
        case .quick: quick
        case .smoke: smoke
        }
    }

    /// How many rounds a cell gets at this scale, and how long each lasts, in words.
    public var rounds: String { roundPolicy.description }

    /// How many rounds a cell gets at this scale, and how long each lasts.
    var roundPolicy: RoundPolicy {
        switch self {
        case .full:
            // 100 ms, not 200: in four alternated runs of W1 and W2 the shorter rounds left as many rows untrusted
            // (18 and 9 of 142, against 18 and 18) in 30 % less time (Docs/Statistics.md, "A round lasts").
            RoundPolicy(rounds: 9, minimumRoundSeconds: 0.1, maximumRounds: 21, targetSpread: 0.1, extraSeconds: 40)
        case .quick:
            RoundPolicy(rounds: 3, minimumRoundSeconds: 0.02, maximumRounds: 3, targetSpread: 0.1, extraSeconds: 0)
        case .smoke:
            RoundPolicy(rounds: 1, minimumRoundSeconds: 0, maximumRounds: 1, targetSpread: 0.1, extraSeconds: 0)
        }
    }
}

/// How many rounds every (workload, parameters) cell gets, and how long each round lasts.
///
/// A round repeats the workload on fresh backend instances until it has lasted `minimumRoundSeconds`: where the
/// kernel places the threads decides a figure (two cores shared or not), and one long round averages over several
/// placements instead of drawing one. After the `rounds` every cell gets, a cell whose interval (of a backend's median,
/// or of its paired ratio to its reference) is still wider than `targetSpread` of the value gets more rounds, up to
/// `maximumRounds`, while the run's `extraSeconds` for such rounds last.
struct RoundPolicy: Sendable, Equatable, CustomStringConvertible {
    var rounds: Int
    var minimumRoundSeconds: Double
    var maximumRounds: Int
    var targetSpread: Double
    var extraSeconds: Double

    /// The most rounds `--rounds` accepts: beyond it a run would not end this week.
    static let roundsLimit = 1_000
    /// The longest round `--round-ms` accepts: ten seconds of one backend is no longer a round of a sweep.
    static let longestRoundMilliseconds = 10_000
    /// The longest time budget a run or a comparison accepts, in seconds: beyond a day it is a typing error, not a plan.
    static let longestBudgetSeconds: Double = 86_400

    var description: String {
        var text = "\(rounds) rounds"
        if minimumRoundSeconds > 0 { text += " of at least \(Int(minimumRoundSeconds * 1000)) ms" }
        if maximumRounds > rounds && extraSeconds > 0 {
            text +=
                ", up to \(maximumRounds) while an interval is wider than \(Int(targetSpread * 100)) % "
                + "(at most \(Int(extraSeconds)) s of extra rounds)"
        }
        // Every figure of this build rests on rounds moved to their cell's median level (RoundLevels).
        return text + "; each cell's rounds levelled"
    }
}
