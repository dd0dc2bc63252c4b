import Foundation
import SchedulerExplorer
import SchedulerKit

extension RuleFamily {
    public static let model = RuleFamily("M", title: "Random programs against a model")
}

extension RuleID {
    public static let m1 = RuleID(newRuleOf: .model, number: 1)
}

/// M: random programs against a model. The other families check each promise in a shape written for it; these
/// draw programs that combine the operations (plain, delayed and repeating work, cancels from outside and from
/// inside, work scheduled from inside, time let pass) and check every promise the scheduler's rules make at once,
/// against a small sequential model (``ProgramModel``), as QuickCheck's state-machine tests and Lincheck do.
enum ProgramRules {
    static let all: [ConformanceRule] = [schedulerPrograms]

    /// Programs per run, unless `SCHEDULERKIT_PROGRAMS` says otherwise: on virtual time a program takes
    /// microseconds, on real time a few milliseconds (its deadlines and sleeps).
    static func budget(virtual: Bool) -> Int {
        if let text = ProcessInfo.processInfo.environment["SCHEDULERKIT_PROGRAMS"], let count = Int(text), count > 0 {
            return count
        }
        return virtual ? 300 : 100
    }

    /// How many times a replayed program runs on real time, until it fails: whether a race goes the same way again
    /// is the scheduler's.
    static let realTimeReplays = 20

    /// The programs of a run, and whether they are one program replayed (the verdict says which).
    struct Drawn {
        let programs: [SchedulerProgram]
        let replayed: Bool
    }

    /// The programs of a run: fresh ones drawn from a fresh seed; or, to replay, the program
    /// `SCHEDULERKIT_PROGRAM` writes (``SchedulerProgram/code``) or the one `SCHEDULERKIT_PROGRAM_SEED` draws, once on
    /// virtual time and up to ``realTimeReplays`` times on real time.
    static func programs(_ shape: ProgramShape) throws -> Drawn {
        let environment = ProcessInfo.processInfo.environment
        let replays = shape.virtual ? 1 : realTimeReplays
        if let text = environment["SCHEDULERKIT_PROGRAM"] {
            guard let program = SchedulerProgram(code: text) else {
                throw RuleFailure(
                    "SCHEDULERKIT_PROGRAM=\(text) is not a program: give the code a failure printed (such as s1,n2:1), or unset it"
                )
            }
            return Drawn(programs: Array(repeating: program, count: replays), replayed: true)
        }
        if let text = environment["SCHEDULERKIT_PROGRAM_SEED"] {
            let digits = text.hasPrefix("0x") ? String(text.dropFirst(2)) : text
            guard let seed = UInt64(digits, radix: 16) else {
                throw RuleFailure(
                    "SCHEDULERKIT_PROGRAM_SEED=\(text) is not a seed: give the hex seed a failure printed (0x…), or unset it"
                )
            }
            let program = SchedulerProgram.random(seed: seed, shape: shape)
            return Drawn(programs: Array(repeating: program, count: replays), replayed: true)
        }
        let base = UInt64.random(in: 0...UInt64.max)
        let fresh = (0..<budget(virtual: shape.virtual)).map {
            SchedulerProgram.random(seed: SplitMix64.scheduleSeed(base, index: $0), shape: shape)
        }
        return Drawn(programs: fresh, replayed: false)
    }

    static let schedulerPrograms = ConformanceRule(
        id: .m1, family: .model,
        evidence: .observed(
            trials: budget(virtual: false), trial: "random programs of 3 to 12 operations (300 on virtual time)"),
        statement:
            "Random programs of 3 to 12 operations (plain, delayed and repeating work; cancels from the check's thread and from inside tasks; work scheduled from inside tasks; time let pass, and run() on virtual time) keep every promise of the scheduler's own rules at once, read against a sequential model: each task runs once unless a cancel said true, and then never; no tick after a true cancel; nothing early; serial exclusion and one producer's order; the current scheduler; no run on a schedule call's stack; trampolined nesting; on virtual time exact due times, (due, submission) order, advances that run all they pass over and a run() that says truly whether it drained; no closure held after a cancel or a run. A failure is shrunk to the shortest program that still fails and printed with the seed that replays it.",
        why:
            "The other rules check each promise in a shape written for it, and a defect that needs two operations together passes them all: a cancel from inside one task of work another task scheduled, a tick due while the queue is busy, delayed work added during an advance. Random combinations reach what nobody wrote a shape for.",
        catches:
            "Defects that show only in a combination: a cancel that is truthful from outside but not from inside a task; a virtual clock whose run() says it stopped early when the last step drained it; a delayed task added by a running task that misses the advance it falls in. The model asks of each scheduler only what its traits and declarations promise, so it judges foreign schedulers as it does ours.",
        excludes: []
    ) { context in
        let search = search(for: context.backend) { context.makeScheduler() }
        let drawn = try programs(search.shape)
        do {
            let steps = try search.search(drawn.programs)
            context.ran(drawn.programs.count)
            let what = drawn.replayed ? "runs of the one program replayed" : "random programs"
            return "\(drawn.programs.count) \(what) (\(steps) operations) kept every promise of the model"
        } catch let failure as ProgramSearch.Failure {
            throw RuleFailure(failure.message)
        }
    }

    /// The search M1 runs on `backend`'s schedulers: the model of its traits, less what it declares or fails by
    /// design.
    static func search(for backend: ConformanceBackend, makeScheduler: @escaping () -> any Scheduler)
        -> ProgramSearch
    {
        let width = (makeScheduler() as? any ConcurrentScheduler)?.width
        let declared = Array(backend.declarations.keys) + Array(backend.expectedFailures.keys)
        return ProgramSearch(
            shape: ProgramShape(traits: backend.traits),
            model: ProgramModel(traits: backend.traits, width: width, declared: declared), settle: .seconds(2),
            makeScheduler: makeScheduler)
    }
}
