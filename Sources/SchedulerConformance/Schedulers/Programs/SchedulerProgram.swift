import SchedulerExplorer
import SchedulerKit

/// A task of a random program: t1, t2, … in the order the program creates them.
struct ProgramTask: Hashable, Comparable, Sendable, CustomStringConvertible {
    let number: Int
    var description: String { "t\(number)" }
    static func < (a: ProgramTask, b: ProgramTask) -> Bool { a.number < b.number }
}

/// One operation of a random program (rule M1). The check's thread performs the top-level ones in order; `nested`
/// and `cancelInside` are done by their parent task, from inside, when it runs. Times are milliseconds, on the
/// scheduler's own clock: real ones sleep, virtual ones advance.
enum ProgramStep: Sendable, Equatable, CustomStringConvertible {
    /// Plain work; `holds` keeps it running until the check next lets time pass (real time, at most 1 s), so that
    /// the steps between are done, as far as a serial scheduler can tell, at one instant, behind it.
    case schedule(ProgramTask, holds: Bool)
    /// Delayed work due `offset` ms from now (−1: in the past, 0: due now).
    case scheduleAt(ProgramTask, offset: Int)
    /// Repeating work from now + `start` every `interval`, which cancels itself from inside its tick number `ticks`.
    case repeating(ProgramTask, start: Int, interval: Int, ticks: Int)
    /// A cancel from the check's thread.
    case cancel(ProgramTask)
    /// When `parent` runs, it schedules this task from inside (plain, or due `offset` ms from then).
    case nested(ProgramTask, parent: ProgramTask, offset: Int?)
    /// When `parent` runs, it cancels `target` from inside (itself too: a running task's cancel says false).
    case cancelInside(ProgramTask, parent: ProgramTask)
    /// Lets `ms` pass: `advance(by:)` on virtual time, a sleep on real time.
    case pass(Int)
    /// Virtual time: `run(maxSteps:)`.
    case run(maxSteps: Int)

    /// The task this step creates, if it creates one.
    var created: ProgramTask? {
        switch self {
        case .schedule(let task, _), .scheduleAt(let task, _), .repeating(let task, _, _, _), .nested(let task, _, _):
            task
        case .cancel, .cancelInside, .pass, .run: nil
        }
    }

    /// The tasks this step needs to exist (its parent, the task it cancels).
    var needs: [ProgramTask] {
        switch self {
        case .cancel(let target): [target]
        case .nested(_, let parent, _): [parent]
        case .cancelInside(let target, let parent): [target, parent]
        case .schedule, .scheduleAt, .repeating, .pass, .run: []
        }
    }

    /// Done from inside a parent task rather than by the check's thread.
    var parent: ProgramTask? {
        switch self {
        case .nested(_, let parent, _), .cancelInside(_, let parent): parent
        default: nil
        }
    }

    var description: String {
        switch self {
        case .schedule(let task, let holds): "\(task) = schedule {\(holds ? " held until time passes " : "")}"
        case .scheduleAt(let task, let offset):
            "\(task) = schedule(at: now \(offset < 0 ? "−" : "+") \(abs(offset)) ms)"
        case .repeating(let task, let start, let interval, let ticks):
            "\(task) = every \(interval) ms from now + \(start) ms, cancels itself in tick \(ticks)"
        case .cancel(let target): "cancel \(target)"
        case .nested(let task, let parent, let offset):
            "\(task) = schedule\(offset.map { "(at: now + \($0) ms)" } ?? "") from inside \(parent)"
        case .cancelInside(let target, let parent): "\(parent) cancels \(target) from inside"
        case .pass(let ms): "let \(ms) ms pass"
        case .run(let maxSteps): "run(maxSteps: \(maxSteps))"
        }
    }
}

/// What a scheduler offers a program: the operations its traits allow.
struct ProgramShape: Sendable, Equatable {
    var timed: Bool
    var repeating: Bool
    var virtual: Bool
    /// Whether a task may hold the scheduler (asynchronous real time: a hold on the caller's stack would hold the
    /// check).
    var canHold: Bool
    /// The most top-level and nested operations a program has.
    var maxSteps = 12

    init(traits: SchedulerTraits) {
        timed = traits.contains(.timed)
        repeating = traits.contains(.timed) && traits.contains(.repeating)
        virtual = traits.contains(.virtualTime)
        canHold = traits.contains(.asynchronous) && !virtual
    }
}

/// A random program: the steps, and the seed that made them (the same seed and shape make the same program).
struct SchedulerProgram: Sendable, Equatable, CustomStringConvertible {
    var steps: [ProgramStep]
    let seed: UInt64

    var description: String { steps.map(\.description).joined(separator: "; ") }

    /// The steps a parent does from inside, in program order.
    func actions(of parent: ProgramTask) -> [ProgramStep] { steps.filter { $0.parent == parent } }

    /// The step that creates `task`.
    func creation(of task: ProgramTask) -> ProgramStep? { steps.first { $0.created == task } }

    /// The program without the steps that need a task no earlier step creates (after a shrink removed it).
    func normalized() -> SchedulerProgram {
        var kept: [ProgramStep] = []
        var existing: Set<ProgramTask> = []
        for step in steps where step.needs.allSatisfy(existing.contains) {
            kept.append(step)
            if let task = step.created { existing.insert(task) }
        }
        return SchedulerProgram(steps: kept, seed: seed)
    }

    /// A program of 3 to `shape.maxSteps` steps drawn from `seed`.
    static func random(seed: UInt64, shape: ProgramShape) -> SchedulerProgram {
        var random = SplitMix64(seed: seed)
        func pick(_ range: ClosedRange<Int>) -> Int {
            range.lowerBound + Int(random.next(below: UInt64(range.count)))
        }
        var steps: [ProgramStep] = []
        var tasks: [ProgramTask] = []
        var oneShots: [ProgramTask] = []
        let count = pick(3...shape.maxSteps)
        while steps.count < count {
            let next = ProgramTask(number: tasks.count + 1)
            let roll = pick(0...99)
            let step: ProgramStep?
            switch roll {
            case 0..<25: step = .schedule(next, holds: shape.canHold && pick(0...3) == 0)
            case 25..<45: step = shape.timed ? .scheduleAt(next, offset: pick(-1...4)) : nil
            case 45..<53:
                step =
                    shape.repeating
                    ? .repeating(next, start: pick(0...3), interval: pick(1...2), ticks: pick(1...3)) : nil
            case 53..<68: step = tasks.isEmpty ? nil : .cancel(tasks[pick(0...tasks.count - 1)])
            case 68..<80:
                step =
                    oneShots.isEmpty
                    ? nil
                    : .nested(
                        next, parent: oneShots[pick(0...oneShots.count - 1)],
                        offset: shape.timed && pick(0...2) == 0 ? pick(0...3) : nil)
            case 80..<88:
                // A third of them cancel the task that runs them: a running task's cancel must say false.
                let parent = oneShots.isEmpty ? nil : oneShots[pick(0...oneShots.count - 1)]
                step = parent.map {
                    .cancelInside(pick(0...2) == 0 ? $0 : tasks[pick(0...tasks.count - 1)], parent: $0)
                }
            case 88..<97: step = .pass(pick(1...3))
            default: step = shape.virtual ? .run(maxSteps: pick(1...3)) : nil
            }
            guard let step else { continue }
            steps.append(step)
            if let task = step.created {
                tasks.append(task)
                if case .repeating = step {} else { oneShots.append(task) }
            }
        }
        return SchedulerProgram(steps: steps, seed: seed)
    }
}
