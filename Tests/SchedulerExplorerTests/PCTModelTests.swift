import Testing

@testable import SchedulerExplorer
@_spi(Explorer) @testable import SchedulerKit

/// PCT's chooser keeps the ready jobs in a heap and takes short cuts through it; a plain reading of the algorithm
/// (scan every ready job for the highest priority) must choose the same job at every step, from the same seed.
@Suite struct PCTModelTests {
    /// PCT as the paper states it, with no data structure: the same draws from the same generator, in the same
    /// order (the change points first, then a priority per task as its first job is seen).
    struct PlainPCT {
        var random: SplitMix64
        let depth: Int
        var priorities: [Int: UInt64] = [:]
        let changePoints: [Int: UInt64]

        init(depth: Int, steps: Int, seed: UInt64) {
            self.depth = depth
            random = SplitMix64(seed: seed)
            // Drawn as the chooser draws them (the same code): what is checked here is the choice at each step.
            changePoints = PCTStrategy.Chooser.changePoints(depth: depth, steps: steps, drawnFrom: &random)
        }

        /// The id of the job to run among `ready` (in id order): the highest priority, the earliest on a tie.
        mutating func choose(among ready: [ReadyJob], step: Int) -> Int {
            for job in ready where priorities[job.task] == nil {
                priorities[job.task] = UInt64(depth) + (random.next() >> 1)
            }
            let chosen = ready.max { a, b in (priorities[a.task]!, b.id) < (priorities[b.task]!, a.id) }!
            if let lowered = changePoints[step] { priorities[chosen.task] = lowered }
            return chosen.id
        }
    }

    @Test("PCT's heap chooses what a scan of the ready jobs chooses, step by step", arguments: [2, 3, 5])
    func heapMatchesAScan(depth: Int) {
        let steps = 2_000
        for seed in UInt64(1)...10 {
            let strategy = PCTStrategy(depth: depth, steps: steps)
            let chooser = strategy.makeChooser(seed: seed, choices: [])
            var model = PlainPCT(depth: depth, steps: steps, seed: seed)
            var ready = ReadyList()
            defer { for item in ready.removeAll() { item.work.release() } }
            var held: [ReadyJob] = []  // the ready jobs, in id order
            var tasks = 0
            var seen = 0
            var generator = SplitMix64(seed: seed &+ 1_000)
            for step in 1...steps {
                // 0 to 2 new jobs a step (at least one when none is ready), of a new task or one seen before.
                let newJobs = max(held.isEmpty ? 1 : 0, Int(generator.next(below: 3)))
                for _ in 0..<newJobs {
                    let newTask = tasks == 0 || generator.next(below: 3) == 0
                    if newTask { tasks += 1 }
                    let task = newTask ? tasks : 1 + Int(generator.next(below: UInt64(tasks)))
                    let id = ready.endPosition
                    let work = VirtualWork.once(ScheduledWork {}, timed: false)
                    ready.append(
                        .init(deadline: .zero, sequence: UInt64(id), work: work, carried: .closure, note: task))
                    held.append(ReadyJob(id: id, task: task))
                }
                let chosen = chooser.choose(among: ReadyJobs(ready, firstNew: seen), step: step)
                seen = ready.endPosition
                let expected = model.choose(among: held, step: step)
                guard chosen.id == expected else {
                    Issue.record("seed \(seed), step \(step): PCT chose job \(chosen.id), a scan chooses \(expected)")
                    return
                }
                ready.take(at: chosen.id).work.release()
                held.removeAll { $0.id == chosen.id }
            }
        }
    }
}
