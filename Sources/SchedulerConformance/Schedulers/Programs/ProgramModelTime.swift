import SchedulerKit

/// A run's record, indexed for the model.
struct ProgramFacts {
    let starts: [ProgramRecord.Start]
    let ends: [ProgramTask: Int]
    let scheduled: [ProgramTask: ProgramRecord.Scheduled]
    let allCancels: [ProgramRecord.Cancel]
    let drives: [ProgramRecord.Drive]
    /// Where the program was judged settled (real time): tasks scheduled after were not waited for.
    let settledAt: Int?

    init(_ record: ProgramRecord) {
        starts = record.starts.sorted { $0.sequence < $1.sequence }
        ends = record.ends
        scheduled = record.scheduledTasks
        allCancels = record.cancels.sorted { $0.sequence < $1.sequence }
        drives = record.drives.sorted { $0.startSequence < $1.startSequence }
        settledAt = record.settledAt
    }

    /// Whether the program waited for `entry` to run: not if it was scheduled after the program had settled.
    func waited(for entry: ProgramRecord.Scheduled) -> Bool { settledAt.map { entry.sequence < $0 } ?? true }

    func starts(of task: ProgramTask) -> [ProgramRecord.Start] { starts.filter { $0.task == task } }
    func firstStart(of task: ProgramTask) -> ProgramRecord.Start? { starts.first { $0.task == task } }
    /// The cancels of `task` that found it scheduled (a cancel before that answers nothing).
    func cancels(of task: ProgramTask) -> [ProgramRecord.Cancel] {
        allCancels.filter { $0.target == task && $0.result != nil }
    }
    /// Whether a cancel of `task` had returned true before `sequence`.
    func cancelled(_ task: ProgramTask, before sequence: Int) -> Bool {
        allCancels.contains { $0.target == task && $0.result == true && $0.sequence < sequence }
    }

    /// When a start was due: the deadline (plus the ticks before it), no earlier than the call on virtual time.
    func due(of start: ProgramRecord.Start, clampedToCall: Bool) -> SchedulerTime? {
        guard let entry = scheduled[start.task], let deadline = entry.deadline else { return nil }
        if let interval = entry.interval { return deadline + interval * (start.tick - 1) }
        return clampedToCall ? entry.due : deadline
    }
}

extension ProgramModel {
    /// Timed work never starts before its deadline, nor a tick before its place on the grid (T1).
    func time(_ facts: ProgramFacts, program: SchedulerProgram) -> [ProgramViolation] {
        facts.starts.compactMap { start in
            guard let now = start.now, let due = facts.due(of: start, clampedToCall: false), now < due else {
                return nil
            }
            let what =
                facts.scheduled[start.task]?.interval == nil ? "\(start.task)" : "tick \(start.tick) of \(start.task)"
            return .init(rule: .t1, text: "\(what) began \(readable(now.duration(to: due))) before it was due")
        }
    }

    /// Virtual time: nothing runs unless driven (V1); each task runs with now equal to when it was due (V2, V6) and
    /// now never goes back (V5); equal due times run in submission order (V2) and equal ticks in creation order
    /// (V6); an advance runs all it passes over, also what was added during it (V2, V3), and ends at its target;
    /// run(maxSteps:) says truly whether it drained (V7) and never moves now past the last work it ran (N3).
    func virtualTime(_ facts: ProgramFacts, program: SchedulerProgram) -> [ProgramViolation] {
        var found: [ProgramViolation] = []
        var previous: ProgramRecord.Start?
        for start in facts.starts {
            if !start.whileDriven {
                found.append(.init(rule: .v1, text: "\(start.task) ran while nothing drove the clock"))
            }
            let ticking = facts.scheduled[start.task]?.interval != nil
            if let now = start.now, let due = facts.due(of: start, clampedToCall: true), now != due {
                found.append(
                    .init(
                        rule: ticking ? .v6 : .v2,
                        text: "\(ticking ? "tick \(start.tick) of " : "")\(start.task) ran at \(now), due at \(due)"))
            }
            if let previous, let before = previous.now, let now = start.now {
                if now < before {
                    found.append(.init(rule: .v5, text: "now went back from \(before) to \(now) at \(start.task)"))
                } else if now == before, previous.task != start.task, let a = facts.scheduled[previous.task],
                    let b = facts.scheduled[start.task], (a.interval == nil) == (b.interval == nil),
                    b.sequence < a.sequence
                {
                    found.append(
                        .init(
                            rule: ticking ? .v6 : .v2,
                            text: "\(start.task) ran after \(previous.task) at the same time, though created first"))
                }
            }
            previous = start
        }
        for drive in facts.drives { found += check(drive, facts) }
        return found
    }

    private func check(_ drive: ProgramRecord.Drive, _ facts: ProgramFacts) -> [ProgramViolation] {
        var found: [ProgramViolation] = []
        let ran = facts.starts.filter { $0.sequence > drive.startSequence && $0.sequence < drive.endSequence }
        guard let before = drive.nowBefore, let after = drive.nowAfter else { return [] }
        let pending = pendingAfter(drive, facts)
        switch (drive.step, drive.outcome) {
        case (.pass(let ms), _):
            if after != before + .milliseconds(ms) {
                found.append(.init(rule: .v2, text: "advance(by: \(ms) ms) from \(before) ended at \(after)"))
            }
            for task in pending
            where facts.scheduled[task]?.interval == nil && facts.scheduled[task]?.due.map({ $0 <= after }) == true {
                let added = (facts.scheduled[task]?.sequence ?? 0) > drive.startSequence
                found.append(
                    .init(
                        rule: added ? .v3 : .v2,
                        text: "advance(by: \(ms) ms) to \(after) left \(task) unrun, due by then"
                            + (added ? " (added during the advance)" : "")))
            }
            for task in pending {
                guard let entry = facts.scheduled[task], let interval = entry.interval, let start = entry.deadline,
                    start <= after
                else { continue }
                let due = Int(start.duration(to: after) / interval) + 1
                let ticked =
                    ran.filter { $0.task == task }.count
                    + facts.starts.filter { $0.task == task && $0.sequence < drive.startSequence }.count
                if ticked < due {
                    found.append(
                        .init(
                            rule: .v6,
                            text:
                                "advance(by: \(ms) ms) to \(after) left \(task) at \(ticked) of the \(due) ticks due by then"
                        ))
                }
            }
        case (.run(let maxSteps), .drained(let steps)?):
            if steps != ran.count || steps > maxSteps {
                found.append(
                    .init(
                        rule: .v7, text: "run(maxSteps: \(maxSteps)) said drained(steps: \(steps)) and ran \(ran.count)"
                    ))
            }
            if let left = pending.first {
                found.append(.init(rule: .v7, text: "run(maxSteps: \(maxSteps)) said drained, yet \(left) was pending"))
            }
        case (.run(let maxSteps), .stoppedEarly(let steps, let left)?):
            if drive.isFinal || steps != maxSteps || steps != ran.count || left < 1 || pending.isEmpty {
                found.append(
                    .init(
                        rule: .v7,
                        text:
                            "run(maxSteps: \(maxSteps)) said stoppedEarly(steps: \(steps), pending: \(left)) after running \(ran.count), with \(pending.count) live work pending"
                    ))
            }
        default: break
        }
        if case .run = drive.step {
            let expected = ran.last?.now ?? before
            if after != expected {
                found.append(
                    .init(
                        rule: .n3,
                        text: "run() left now at \(after); the last work it ran was at \(expected)"))
            }
        }
        return found
    }

    /// The live work still queued when `drive` ended: one-shot work not yet run and not cancelled, and repeating
    /// work neither cancelled nor at its last tick.
    private func pendingAfter(_ drive: ProgramRecord.Drive, _ facts: ProgramFacts) -> [ProgramTask] {
        facts.scheduled.values.filter { entry in
            guard entry.sequence < drive.endSequence, !facts.cancelled(entry.task, before: drive.endSequence) else {
                return false
            }
            return !facts.starts.contains { $0.task == entry.task && $0.sequence < drive.endSequence }
                || entry.interval != nil
        }.map(\.task).sorted()
    }
}
