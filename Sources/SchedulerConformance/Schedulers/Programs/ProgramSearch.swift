import Foundation
import SchedulerExplorer
import SchedulerKit

/// Runs random programs on fresh schedulers against the model, and shrinks the first that fails to the shortest
/// program that still fails the same promise (QuickCheck's way: drop chunks of steps, then single steps, then make
/// each remaining step simpler).
struct ProgramSearch {
    let shape: ProgramShape
    let model: ProgramModel
    /// How long a real-time program may take to settle (generous: it bounds correctness, not speed).
    let settle: Duration
    let makeScheduler: () -> any Scheduler

    /// What a search found.
    struct Failure: Error {
        let original: SchedulerProgram
        let shrunk: SchedulerProgram
        let violation: ProgramViolation
        let index: Int
        let tried: (programs: Int, steps: Int)
        /// Whether the program failed again when replayed (false: a race that one run hit), in how many replays.
        let failedAgain: Bool
        let replays: Int
    }

    /// Programs on real time run this many times while shrinking (a race may show once in several).
    private var replays: Int { shape.virtual ? 1 : 5 }

    /// One run of `program` on a fresh scheduler: the promises it broke. `waitForRelease`: give the scheduler up to
    /// 1 s to let go of closures (a shrink that looks for another promise skips the wait).
    func violations(of program: SchedulerProgram, waitForRelease: Bool = true) -> [ProgramViolation] {
        let run = ProgramRun(program, on: makeScheduler(), model: model)
        run.perform(settle: settle)
        func held(_ handlesHeld: Bool) -> [ProgramViolation] {
            if waitForRelease, !shape.virtual {
                poll(upTo: .seconds(1)) { model.held(by: run, handlesHeld: handlesHeld).isEmpty }
            }
            return model.held(by: run, handlesHeld: handlesHeld)
        }
        var found = model.violations(of: run) + held(true)
        run.dropHandles()
        found += held(false)
        return found
    }

    /// Runs the programs of `seeds` in turn; throws the first failure, shrunk. Returns the steps it ran.
    func search(seeds: [UInt64]) throws(Failure) -> Int {
        try search(seeds.map { SchedulerProgram.random(seed: $0, shape: shape) })
    }

    /// Runs `programs` in turn; throws the first failure, shrunk. Returns the steps it ran.
    func search(_ programs: [SchedulerProgram]) throws(Failure) -> Int {
        var steps = 0
        for (index, program) in programs.enumerated() {
            steps += program.steps.count
            guard let violation = violations(of: program).first else { continue }
            let again = (0..<replays).filter { _ in violations(of: program).contains { $0.rule == violation.rule } }
            let shrunk = shrink(program, keeping: violation, failingAtLeast: min(3, max(1, again.count)))
            throw Failure(
                original: program, shrunk: shrunk.program, violation: shrunk.violation, index: index,
                tried: (index + 1, steps), failedAgain: !again.isEmpty, replays: replays)
        }
        return steps
    }

    /// The shortest program found that still breaks the same promise (at most 200 runs, or 60 s). On real time a
    /// candidate must fail in `needed` of its replays: as often as the program did (up to 3 of 5), so that shrinking
    /// never trades a program that fails reliably for one that needs its race again.
    func shrink(_ program: SchedulerProgram, keeping violation: ProgramViolation, failingAtLeast needed: Int = 1)
        -> (program: SchedulerProgram, violation: ProgramViolation)
    {
        var current = (program: program, violation: violation)
        var budget = 200
        let started = ContinuousClock.now
        let aboutRelease = [RuleID.c4, .c6, .l5].contains { $0 == violation.rule }
        func fails(_ candidate: SchedulerProgram) -> ProgramViolation? {
            guard budget > 0, ContinuousClock.now - started < .seconds(60) else { return nil }
            var failures: [ProgramViolation] = []
            for replay in 0..<replays where failures.count < needed && failures.count + replays - replay >= needed {
                budget -= 1
                let found = violations(of: candidate, waitForRelease: aboutRelease)
                if let same = found.first(where: { $0.rule == violation.rule }) { failures.append(same) }
            }
            return failures.count >= needed ? failures.first : nil
        }
        var chunk = max(1, current.program.steps.count / 2)
        while chunk >= 1 {
            var index = 0
            var removedAny = false
            while index < current.program.steps.count {
                var steps = current.program.steps
                steps.removeSubrange(index..<min(index + chunk, steps.count))
                let candidate = SchedulerProgram(steps: steps, seed: program.seed).normalized()
                if let found = fails(candidate) {
                    current = (candidate, found)
                    removedAny = true
                } else {
                    index += chunk
                }
            }
            if !removedAny { chunk /= 2 }
        }
        for index in current.program.steps.indices {
            for simpler in Self.simpler(current.program.steps[index]) {
                var steps = current.program.steps
                steps[index] = simpler
                let candidate = SchedulerProgram(steps: steps, seed: program.seed)
                if let found = fails(candidate) {
                    current = (candidate, found)
                    break
                }
            }
        }
        return current
    }

    /// Simpler forms of a step, simplest first.
    static func simpler(_ step: ProgramStep) -> [ProgramStep] {
        switch step {
        case .schedule(let task, true): [.schedule(task, holds: false)]
        case .scheduleAt(let task, let offset) where offset != 0: [.scheduleAt(task, offset: 0)]
        case .repeating(let task, let start, let interval, let ticks):
            [
                .repeating(task, start: 0, interval: 1, ticks: 1),
                .repeating(task, start: 0, interval: interval, ticks: ticks),
                .repeating(task, start: start, interval: interval, ticks: 1),
            ].filter { $0 != step }
        case .nested(let task, let parent, .some): [.nested(task, parent: parent, offset: nil)]
        case .pass(let ms) where ms > 1: [.pass(1)]
        case .run(let maxSteps) where maxSteps > 1: [.run(maxSteps: 1)]
        default: []
        }
    }
}

extension ProgramSearch.Failure {
    /// The verdict: the broken promise, the shrunk program, and how to replay it.
    var message: String {
        let race = failedAgain ? "" : " It did not fail again in \(replays) replays: a race that one run hit."
        let program =
            "Shortest failing program: \(shrunk.steps.count) operations"
            + (shrunk.steps.count < original.steps.count ? " (shrunk from \(original.steps.count))" : "")
            + ": \(shrunk)."
        let drawn =
            original.seed == 0
            ? "" : "; the program as drawn: SCHEDULERKIT_PROGRAM_SEED=\(SplitMix64.text(original.seed))"
        return
            "program \(index + 1)\(original.seed == 0 ? "" : " (seed \(SplitMix64.text(original.seed)))") broke a promise: "
            + "\(violation).\(race) \(program) Replay the shortest: SCHEDULERKIT_PROGRAM=\(shrunk.code)\(drawn) "
            + "(\(tried.programs) programs, \(tried.steps) operations tried)"
    }
}
