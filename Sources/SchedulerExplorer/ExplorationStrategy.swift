import Foundation
import HeapModule
@_spi(Explorer) import SchedulerKit

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
    /// Every schedule with at most `preemptions` preemptions, depth first (iterative context bounding: Musuvathi and
    /// Qadeer, PLDI 2007, as CHESS and loom do). A task that has a job ready keeps running unless a choice preempts
    /// it; when it has none ready (it awaits), any ready job runs, and those choices are free. Schedule after schedule
    /// changes the last choice that can still change within the bound, so none repeats; when none is left the
    /// exploration is exhausted, and its pass reads "all N schedules within the bound passed". Replayed by its
    /// choices (``ExplorationFailure/choices``), not a seed.
    case exhaustive(preemptions: Int)

    public var description: String {
        switch self {
        case .firstInFirstOut: "first-in-first-out"
        case .random: "random"
        case .pct(let depth, let steps): "PCT (depth \(depth), \(steps) steps)"
        case .exhaustive(let preemptions): "exhaustive (at most \(preemptions) preemptions)"
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

/// The choices of one schedule: a strategy, the seeded generator it draws from, and the numbers it gives tasks in
/// the order they became ready (so a trace names them the same way in every replay, whatever their ids).
///
/// It sees each ready job once, when it becomes ready (in that order, which is the order the old full scan met new
/// tasks in, so a seed draws the same numbers): first-in-first-out and random then cost one O(log n) look-up in the
/// ready list, and PCT keeps the ready jobs in a heap by their task's priority, where a job whose task was lowered
/// since it went in is put back at its new priority when it reaches the top.
// @unchecked Sendable: the engine calls `choose` only with its state lock held, so one thread at a time touches it.
final class StrategyChooser: ReadyWorkChooser, @unchecked Sendable {
    private let strategy: ExplorationStrategy
    private var random: SplitMix64
    /// The ready list's positions up to here have been seen.
    private var seen = 0
    /// Task numbers by task id, and how many numbers were given.
    private var numbers: [UInt64: Int] = [:]
    private var count = 0
    /// PCT: each task's priority by its number (higher runs first); steps at which the running task's drops.
    private var priorities: [UInt64] = [0]
    /// PCT's change points by step, latest first, so the next one is the last (no hashing per step).
    private var changePoints: [(step: Int, lowered: UInt64)] = []
    private var byPriority = Heap<PriorityKey>()
    /// Exhaustive: the alternatives to take at the first choices (the default after them), what each choice offered
    /// and took, and the task that ran last (its number).
    private let prefix: [Int]
    private(set) var decisions: [PreemptionBound.Decision] = []
    private var lastTask = 0

    /// A ready job under PCT: its task's priority when it went in, and its position (earlier wins a tie).
    private struct PriorityKey: Comparable {
        let priority: UInt64
        let position: Int
        static func < (a: PriorityKey, b: PriorityKey) -> Bool { (a.priority, b.position) < (b.priority, a.position) }
    }

    init(_ strategy: ExplorationStrategy, seed: UInt64, prefix: [Int] = []) {
        self.strategy = strategy
        self.random = SplitMix64(seed: seed)
        self.prefix = prefix
        if case .exhaustive(let preemptions) = strategy {
            precondition(
                preemptions >= 0, "ExplorationStrategy.exhaustive: preemptions must not be negative, got \(preemptions)"
            )
        }
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
            changePoints = points.map { (step: $0.key, lowered: $0.value) }.sorted { $0.step > $1.step }
        }
    }

    func choose(in ready: inout ReadyList, step: Int) -> Int {
        for position in seen..<ready.endPosition {
            guard let item = ready[position] else { continue }
            let number = self.number(of: item)
            ready.setNote(number, at: position)
            if case .pct(let depth, _) = strategy {
                if number == priorities.count {
                    // A new task: a random priority above every change point's.
                    priorities.append(UInt64(depth) + (random.next() >> 1))
                }
                byPriority.insert(PriorityKey(priority: priorities[number], position: position))
            }
        }
        seen = ready.endPosition
        switch strategy {
        case .firstInFirstOut:
            return ready.position(ofRank: 0)
        case .random:
            return ready.position(ofRank: Int(random.next(below: UInt64(ready.count))))
        case .exhaustive:
            return chooseExhaustively(in: ready)
        case .pct:
            while let top = byPriority.popMax() {
                guard let item = ready[top.position] else { continue }  // taken already: never, but harmless
                let current = priorities[item.note]
                guard current == top.priority else {
                    // Its task was lowered after this job went in.
                    byPriority.insert(PriorityKey(priority: current, position: top.position))
                    continue
                }
                if let next = changePoints.last, next.step == step {
                    priorities[item.note] = next.lowered
                    changePoints.removeLast()
                }
                return top.position
            }
            preconditionFailure("StrategyChooser: a ready job missing from PCT's heap")
        }
    }

    /// The default continues the task that ran last, if it has a job ready; the prefix says which alternative to take.
    private func chooseExhaustively(in ready: ReadyList) -> Int {
        var defaultRank: Int?
        if lastTask != 0 {
            defaultRank = (0..<ready.count).first { ready[ready.position(ofRank: $0)]?.note == lastTask }
        }
        let made = decisions.count
        let alternative = made < prefix.count ? min(prefix[made], ready.count - 1) : 0
        decisions.append(PreemptionBound.Decision(offered: ready.count, free: defaultRank == nil, taken: alternative))
        let position = ready.position(
            ofRank: PreemptionBound.rank(ofAlternative: alternative, defaultRank: defaultRank ?? 0))
        lastTask = ready[position]?.note ?? 0
        return position
    }

    /// The number of each task seen, by task id.
    var taskNumbers: [UInt64: Int] { numbers }

    /// A job's task by its number; other work (a job of no task, a closure, a tick) counts as a task of its own.
    private func number(of item: ReadyList.Item) -> Int {
        count += 1
        switch item.carried {
        case .actorJob(let task) where task != 0, .taskJob(let task) where task != 0,
            .runtimeJob(let task) where task != 0:
            if let number = numbers[task] {
                count -= 1
                return number
            }
            numbers[task] = count
            return count
        default:
            // Seen once and never again: numbered without being remembered.
            return count
        }
    }
}

/// Steele, Lea and Flood's SplitMix64: a small generator whose whole state is one seed, so a schedule's seed is all
/// it takes to replay it. Not for cryptography.
package struct SplitMix64 {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in `0..<bound` (Lemire's multiply-and-reject, no modulo bias).
    package mutating func next(below bound: UInt64) -> UInt64 {
        precondition(bound > 0)
        while true {
            let product = next().multipliedFullWidth(by: bound)
            if product.low >= (0 &- bound) % bound { return product.high }
        }
    }

    /// A seed as it is printed and read back (`0x9A23C3A0FFEDFE9`): by the explorer's failures and the kit's M1.
    package static func text(_ seed: UInt64) -> String { "0x" + String(seed, radix: 16, uppercase: true) }

    /// A seed written by ``text(_:)`` (or the crash note), read back; nil if it is not one.
    package static func parse(_ text: String) -> UInt64? {
        guard text.hasPrefix("0x") else { return nil }
        return UInt64(text.dropFirst(2), radix: 16)
    }

    /// The seed of schedule `index` of an exploration seeded with `seed`: each schedule replays alone.
    package static func scheduleSeed(_ seed: UInt64, index: Int) -> UInt64 {
        var generator = SplitMix64(seed: seed &+ UInt64(index) &* 0xD1B5_4A32_D192_ED03)
        return generator.next()
    }
}
