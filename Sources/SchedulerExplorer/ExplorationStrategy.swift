import Foundation

/// How an exploring scheduler chooses the next job among those ready.
///
/// Semantics first: a strategy sees only the ready jobs, in the order they became ready, and the task each belongs to;
/// given the same seed and the same body it makes the same choices, so a schedule is replayed by its seed.
public enum ExplorationStrategy: Sendable, Hashable, CustomStringConvertible {
    /// Always the job that became ready first: `TestScheduler`'s order, one schedule whatever the seed.
    case firstInFirstOut
    /// Uniformly at random among the ready jobs.
    case random
    /// Probabilistic concurrency testing (Burckhardt, Kothari, Musuvathi and Nagarakatte, ASPLOS 2010): each task gets
    /// a random priority, the highest-priority ready task runs, and at `depth - 1` steps drawn at random from
    /// `1...steps` the running task drops below every other. For a body of `n` tasks and at most `steps` steps, one
    /// schedule finds a bug of depth `depth` (that needs `depth` ordering constraints) with probability at least
    /// `1 / (n * steps^(depth - 1))`; a bug of depth 1 or 2 needs one order or one preemption.
    case pct(depth: Int, steps: Int)

    public var description: String {
        switch self {
        case .firstInFirstOut: "first-in-first-out"
        case .random: "random"
        case .pct(let depth, let steps): "PCT (depth \(depth), \(steps) steps)"
        }
    }

    /// PCT's lower bound on the chance that one schedule finds a bug of depth `depth` in a body of `tasks` tasks,
    /// and the schedules that find it with probability `confidence` at that bound; nil for the other strategies.
    public func pctBound(tasks: Int, confidence: Double = 0.99) -> (perSchedule: Double, schedules: Int)? {
        guard case .pct(let depth, let steps) = self else { return nil }
        let chance = 1 / (Double(max(1, tasks)) * pow(Double(max(1, steps)), Double(max(0, depth - 1))))
        let schedules = chance >= 1 ? 1 : Int((log(1 - confidence) / log(1 - chance)).rounded(.up))
        return (chance, schedules)
    }
}

/// The choices of one schedule: a strategy and the seeded generator it draws from.
struct Chooser {
    private let strategy: ExplorationStrategy
    private var random: SplitMix64
    /// PCT: each task's priority (higher runs first); steps at which the running task's priority drops.
    private var priorities: [Int: UInt64] = [:]
    private var changePoints: [Int: UInt64] = [:]

    init(_ strategy: ExplorationStrategy, seed: UInt64) {
        self.strategy = strategy
        self.random = SplitMix64(seed: seed)
        if case .pct(let depth, let steps) = strategy {
            precondition(depth >= 1, "ExplorationStrategy.pct: depth must be at least 1, got \(depth)")
            precondition(steps >= 1, "ExplorationStrategy.pct: steps must be at least 1, got \(steps)")
            // Depth - 1 distinct change points in 1...steps; the i-th lowers the running task to priority depth - i,
            // below every initial priority (which are at least depth).
            var points: [Int: UInt64] = [:]
            var lowered: UInt64 = UInt64(depth) - 1
            while lowered > 0, points.count < min(depth - 1, steps) {
                let step = 1 + Int(random.next(below: UInt64(steps)))
                if points[step] == nil {
                    points[step] = lowered
                    lowered -= 1
                }
            }
            changePoints = points
        }
    }

    /// The index, in `tasks` (the ready jobs' tasks, in the order they became ready), of the job to run at `step`
    /// (counted from 1).
    mutating func choose(among tasks: [Int], step: Int) -> Int {
        switch strategy {
        case .firstInFirstOut:
            return 0
        case .random:
            return Int(random.next(below: UInt64(tasks.count)))
        case .pct(let depth, _):
            for task in tasks where priorities[task] == nil {
                // A new task: a random priority above every change point's, ties broken by first sight.
                priorities[task] = UInt64(depth) + (random.next() >> 1)
            }
            var best = 0
            for index in tasks.indices.dropFirst() where priorities[tasks[index]]! > priorities[tasks[best]]! {
                best = index
            }
            if let lowered = changePoints[step] { priorities[tasks[best]] = lowered }
            return best
        }
    }
}

/// Steele, Lea and Flood's SplitMix64: a small generator whose whole state is one seed, so a schedule's seed is all
/// it takes to replay it. Not for cryptography.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in `0..<bound` (Lemire's multiply-and-reject, no modulo bias).
    mutating func next(below bound: UInt64) -> UInt64 {
        precondition(bound > 0)
        while true {
            let product = next().multipliedFullWidth(by: bound)
            if product.low >= (0 &- bound) % bound { return product.high }
        }
    }

    /// The seed of schedule `index` of an exploration seeded with `seed`: each schedule replays alone.
    static func scheduleSeed(_ seed: UInt64, index: Int) -> UInt64 {
        var generator = SplitMix64(seed: seed &+ UInt64(index) &* 0xD1B5_4A32_D192_ED03)
        return generator.next()
    }
}
