/// A program written as a short code, so that a failure can print the shortest program itself and
/// `SCHEDULERKIT_PROGRAM` can run it again: the seed makes the program as drawn, which on real time may need its
/// race again, where the shrunk one usually does not. One step per comma:
///
/// | Step | Code |
/// |---|---|
/// | `t1 = schedule {}`, held until time passes | `s1`, `s1h` |
/// | `t2 = schedule(at: now − 1 ms)` | `a2@-1` |
/// | `t3 = every 2 ms from now + 1 ms, cancels itself in tick 3` | `r3@1/2x3` |
/// | `cancel t2` | `c2` |
/// | `t4 = schedule from inside t1`, or `(at: now + 2 ms)` | `n4:1`, `n4:1@2` |
/// | `t1 cancels t2 from inside` | `k2:1` |
/// | `let 2 ms pass` | `p2` |
/// | `run(maxSteps: 3)` | `m3` |
extension SchedulerProgram {
    var code: String { steps.map(\.code).joined(separator: ",") }

    /// The program a code writes, or nil if it is not one.
    init?(code: String) {
        var steps: [ProgramStep] = []
        for part in code.split(separator: ",") {
            guard let step = ProgramStep(code: String(part)) else { return nil }
            steps.append(step)
        }
        guard !steps.isEmpty else { return nil }
        self.init(steps: steps, seed: 0)
        guard normalized() == self else { return nil }
    }
}

extension ProgramStep {
    var code: String {
        switch self {
        case .schedule(let task, let holds): "s\(task.number)\(holds ? "h" : "")"
        case .scheduleAt(let task, let offset): "a\(task.number)@\(offset)"
        case .repeating(let task, let start, let interval, let ticks): "r\(task.number)@\(start)/\(interval)x\(ticks)"
        case .cancel(let target): "c\(target.number)"
        case .nested(let task, let parent, let offset):
            "n\(task.number):\(parent.number)" + (offset.map { "@\($0)" } ?? "")
        case .cancelInside(let target, let parent): "k\(target.number):\(parent.number)"
        case .pass(let ms): "p\(ms)"
        case .run(let maxSteps): "m\(maxSteps)"
        }
    }

    init?(code: String) {
        guard let letter = code.first else { return nil }
        // The numbers after the letter, split at the code's punctuation ("@", "/", "x", ":"); "h" marks a hold.
        let body = code.dropFirst()
        let holds = body.hasSuffix("h")
        let fields = (holds ? body.dropLast() : body).split(omittingEmptySubsequences: false) { "@/x:".contains($0) }
        let numbers = fields.compactMap { Int($0) }
        guard numbers.count == fields.count, let first = numbers.first else { return nil }
        let task = ProgramTask(number: first)
        let separators = body.filter { "@/x:".contains($0) }
        switch (letter, separators, holds) {
        case ("s", "", _): self = .schedule(task, holds: holds)
        case ("a", "@", false): self = .scheduleAt(task, offset: numbers[1])
        case ("r", "@/x", false) where numbers[2] > 0 && numbers[3] > 0:
            self = .repeating(task, start: numbers[1], interval: numbers[2], ticks: numbers[3])
        case ("c", "", false): self = .cancel(task)
        case ("n", ":", false): self = .nested(task, parent: ProgramTask(number: numbers[1]), offset: nil)
        case ("n", ":@", false):
            self = .nested(task, parent: ProgramTask(number: numbers[1]), offset: numbers[2])
        case ("k", ":", false): self = .cancelInside(task, parent: ProgramTask(number: numbers[1]))
        case ("p", "", false) where first > 0: self = .pass(first)
        case ("m", "", false) where first > 0: self = .run(maxSteps: first)
        default: return nil
        }
    }
}
