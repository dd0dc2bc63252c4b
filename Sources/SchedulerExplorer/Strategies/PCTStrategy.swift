import Foundation
import HeapModule
import SchedulerKit

/// Probabilistic concurrency testing (Burckhardt, Kothari, Musuvathi and Nagarakatte, ASPLOS 2010): each task gets a
/// random priority, the highest-priority ready task runs, and at `depth - 1` steps drawn at random from `1...steps`
/// the running task drops below every other. For a body of `n` tasks and at most `steps` steps, one schedule finds a
/// bug of depth `depth` (that needs `depth` ordering constraints) with probability at least
/// `1 / (n * steps^(depth - 1))` (``bound(tasks:confidence:)``); a bug of depth 1 or 2 needs one order or one
/// preemption.
public struct PCTStrategy: SchedulingStrategy {
    public let depth: Int
    public let steps: Int

    public init(depth: Int, steps: Int) {
        precondition(depth >= 1, "ExplorationStrategy.pct: depth must be at least 1, got \(depth)")
        precondition(steps >= 1, "ExplorationStrategy.pct: steps must be at least 1, got \(steps)")
        self.depth = depth
        self.steps = steps
    }

    public init?(spelling: StrategySpelling) {
        guard spelling.name == "pct", spelling.parameters.map(\.label) == ["depth", "steps"],
            let depth = spelling["depth"], let steps = spelling["steps"], depth >= 1, steps >= 1
        else { return nil }
        self.init(depth: depth, steps: steps)
    }

    public var spelling: StrategySpelling { StrategySpelling("pct", ["depth": depth, "steps": steps]) }
    public var description: String { "PCT (depth \(depth), \(steps) steps)" }

    /// PCT's lower bound on the chance that one schedule finds a bug of depth ``depth`` in a body of `tasks` tasks,
    /// and the schedules that find it with probability `confidence` at that bound.
    public func bound(tasks: Int, confidence: Double = 0.99) -> (perSchedule: Double, schedules: Int) {
        let chance = 1 / (Double(max(1, tasks)) * pow(Double(steps), Double(depth - 1)))
        let schedules = chance >= 1 ? 1 : Int((log(1 - confidence) / log(1 - chance)).rounded(.up))
        return (chance, schedules)
    }

    public func makeChooser(seed: UInt64, choices: [Int]) -> any ScheduleChooser {
        Chooser(depth: depth, steps: steps, seed: seed)
    }

    /// Keeps the ready jobs in a heap by their task's priority, where a job whose task was lowered since it went in
    /// is put back at its new priority when it reaches the top: O(log n) a step.
    final class Chooser: ScheduleChooser {
        // Unchecked: one schedule's driving thread alone calls `choose`, under the engine's lock, so the runtime's
        // exclusivity checks (two calls into the runtime per access) would only cost time.
        @exclusivity(unchecked) private var random: SplitMix64
        private let depth: Int
        /// Each task's priority by its number (higher runs first; number 0 unused).
        @exclusivity(unchecked) private var priorities: [UInt64] = [0]
        /// The change points by step, latest first, so the next one is the last (no hashing per step).
        @exclusivity(unchecked) private var changePoints: [(step: Int, lowered: UInt64)] = []
        @exclusivity(unchecked) private var byPriority = Heap<Key>()

        /// A ready job: its task's priority when it went in, and its id (earlier wins a tie).
        private struct Key: Comparable {
            let priority: UInt64
            let job: ReadyJob
            static func < (a: Key, b: Key) -> Bool { (a.priority, b.job.id) < (b.priority, a.job.id) }
            static func == (a: Key, b: Key) -> Bool { a.priority == b.priority && a.job == b.job }
        }

        init(depth: Int, steps: Int, seed: UInt64) {
            self.depth = depth
            random = SplitMix64(seed: seed)
            let points = Self.changePoints(depth: depth, steps: steps, drawnFrom: &random)
            changePoints = points.map { (step: $0.key, lowered: $0.value) }.sorted { $0.step > $1.step }
        }

        /// Depth - 1 distinct change points in 1...steps, drawn first from a schedule's generator: the i-th lowers
        /// the running task to priority depth - i, below every initial priority (which are at least depth).
        static func changePoints(depth: Int, steps: Int, drawnFrom random: inout SplitMix64) -> [Int: UInt64] {
            var points: [Int: UInt64] = [:]
            var lowered = UInt64(depth) - 1
            while lowered > 0, points.count < min(depth - 1, steps) {
                let step = 1 + Int(random.next(below: UInt64(steps)))
                if points[step] == nil {
                    points[step] = lowered
                    lowered -= 1
                }
            }
            return points
        }

        func choose(among ready: ReadyJobs, step: Int) -> ReadyJob {
            // The last new job stays out of the heap until it is compared with the top: a step that adds one job and
            // runs one then costs one trickle through the heap (`replaceMax`), not an insert and a `popMax`. The job
            // chosen is the same: the highest current priority, the earliest job on a tie.
            var latest: Key?
            for id in ready.newJobIDs {
                guard let job = ready.job(id) else { continue }
                if job.task == priorities.count {
                    // A new task: a random priority above every change point's.
                    priorities.append(UInt64(depth) + (random.next() >> 1))
                }
                if let previous = latest { byPriority.insert(previous) }
                latest = Key(priority: priorities[job.task], job: job)
            }
            while true {
                let top: Key
                if let candidate = latest {
                    latest = nil
                    // A key in the heap only ever overstates its task's priority (priorities are only lowered), so
                    // a fresh key above the top is above every ready job.
                    guard let max = byPriority.max, candidate < max else { return run(candidate, at: step) }
                    top = byPriority.replaceMax(with: candidate)
                } else {
                    guard let max = byPriority.popMax() else { break }
                    top = max
                }
                guard ready.job(top.job.id) != nil else { continue }  // run already: never, but harmless
                let current = priorities[top.job.task]
                guard current == top.priority else {
                    // Its task was lowered after this job went in.
                    byPriority.insert(Key(priority: current, job: top.job))
                    continue
                }
                return run(top, at: step)
            }
            preconditionFailure("PCTStrategy: a ready job missing from the heap")
        }

        /// Runs `chosen` at `step`, lowering its task first if `step` is a change point.
        @inline(__always)
        private func run(_ chosen: Key, at step: Int) -> ReadyJob {
            if let next = changePoints.last, next.step == step {
                priorities[chosen.job.task] = next.lowered
                changePoints.removeLast()
            }
            return chosen.job
        }
    }
}
