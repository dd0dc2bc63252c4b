import SchedulerKit

/// A promise a program's run broke: what the model expected, and the rule that states the promise (nil: every
/// scheduler's, such as "work runs once").
struct ProgramViolation: Sendable, Equatable, CustomStringConvertible {
    let rule: RuleID?
    let text: String
    var description: String { rule.map { "\(text) (\($0)'s promise)" } ?? text }
}

/// The small sequential model of what a scheduler with these traits promises, read against what one run of a
/// program recorded. Each part of the model is a rule's promise, checked where that rule applies to the scheduler
/// and the scheduler neither declares it nor fails it by design; so the model asks of a foreign scheduler what the
/// matrix asks of it, in combinations the rules' fixed shapes do not reach.
struct ProgramModel: Sendable {
    let traits: SchedulerTraits
    /// A concurrent scheduler's width.
    let width: Int?
    /// Rules whose promises are not asked: declared, failed by design, or not for these traits.
    let waived: Set<RuleID>

    init(traits: SchedulerTraits, width: Int?, declared: some Sequence<RuleID>) {
        self.traits = traits
        self.width = width
        var waived = Set(declared)
        // A rule's gate waives its part of the model where the promise does not apply; being thread-confined only
        // keeps a rule's check from racing threads, and a program calls from one thread anyway.
        let promised = traits.subtracting(.threadConfined)
        for rule in ConformanceRules.rules(for: .scheduler) where !rule.applies(to: promised) {
            waived.insert(rule.id)
        }
        self.waived = waived
    }

    /// Every broken promise the run shows, in the order the model looks: fates, exclusion and order, the clock,
    /// then what the scheduler still holds.
    func violations(of run: ProgramRun) -> [ProgramViolation] {
        let facts = ProgramFacts(run.record)
        var found = fates(facts) + exclusion(facts) + order(facts) + time(facts, program: run.program)
        if traits.contains(.virtualTime) { found += virtualTime(facts, program: run.program) }
        return asked(found)
    }

    /// Whether the program needs to wait for `task`: not when it was cancelled with true, nor when a cancel said
    /// false and the scheduler is excused C2 (a best-effort cancel: the task may never run).
    func mayStopWaiting(for cancels: [ProgramRecord.Cancel]) -> Bool {
        cancels.contains { $0.result == true } || (waived.contains(.c2) && cancels.contains { $0.result == false })
    }

    /// The closures the scheduler still holds that it promised to let go of: a cancelled task's while its handle is
    /// held (`handlesHeld`), a finished task's once its handle is dropped too (a library's handle may keep the
    /// closure it ran, and no rule asks it not to).
    func held(by run: ProgramRun, handlesHeld: Bool) -> [ProgramViolation] {
        asked(held(ProgramFacts(run.record), liveCaptures: run.liveCaptures, cancelled: handlesHeld))
    }

    private func asked(_ found: [ProgramViolation]) -> [ProgramViolation] {
        found.filter { $0.rule.map { !waived.contains($0) } ?? true }
    }

    /// Each task ran exactly once unless a cancel said true, and then never; ticks stop at a true cancel.
    private func fates(_ facts: ProgramFacts) -> [ProgramViolation] {
        var found: [ProgramViolation] = []
        for entry in facts.scheduled.values.sorted(by: { $0.task < $1.task }) {
            let task = entry.task
            let starts = facts.starts(of: task)
            let answered = facts.cancels(of: task)
            let trueCancels = answered.filter { $0.result == true }
            if trueCancels.count > 1 {
                found.append(.init(rule: .c3, text: "\(trueCancels.count) cancel() calls of \(task) returned true"))
            }
            guard entry.interval != nil else {
                if let cancel = trueCancels.first, !starts.isEmpty {
                    let by = cancel.by.map { "from inside \($0)" } ?? "from the check's thread"
                    found.append(.init(rule: .c2, text: "\(task) ran although cancel() \(by) returned true"))
                } else if trueCancels.isEmpty, starts.isEmpty, facts.waited(for: entry) {
                    found.append(
                        answered.isEmpty
                            ? .init(rule: nil, text: "\(task) never ran, and nothing cancelled it")
                            : .init(rule: .c2, text: "cancel() of \(task) returned false, yet \(task) never ran"))
                }
                if starts.count > 1 { found.append(.init(rule: nil, text: "\(task) ran \(starts.count) times")) }
                continue
            }
            if let stop = trueCancels.first {
                // On real time one tick may be in flight as the cancel is made: started by the scheduler before
                // the cancel decided, it records its start after (a true cancel promises only later ticks).
                let before = starts.filter { $0.sequence < stop.callSequence }.map(\.tick).max() ?? 0
                let inFlight = traits.contains(.virtualTime) || stop.by == task ? nil : before + 1
                for late in starts where late.sequence > stop.sequence && late.tick != inFlight {
                    found.append(
                        .init(
                            rule: traits.contains(.serial) && !traits.contains(.virtualTime) ? .n2 : .c6,
                            text: "tick \(late.tick) of \(task) began after cancel() had returned true"))
                }
            } else if starts.isEmpty, facts.waited(for: entry) {
                found.append(
                    answered.isEmpty
                        ? .init(rule: nil, text: "repeating \(task) never ticked, and nothing cancelled it")
                        : .init(rule: .c2, text: "cancel() of repeating \(task) returned false, yet it never ticked"))
            }
            // A true cancel that began before the task's own cancel returned raced it, and may have won: the own
            // cancel's false is then the truth (seen on NIO's loop: the check's cancel took the handle while tick 1
            // was cancelling itself).
            if let own = answered.first(where: { $0.by == task }), own.result == false,
                !trueCancels.contains(where: { $0.callSequence < own.sequence })
            {
                found.append(.init(rule: .c6, text: "cancel() of \(task) from inside its own tick returned false"))
            }
            let ticks = starts.map(\.tick)
            if Set(ticks).count != ticks.count { found.append(.init(rule: nil, text: "a tick of \(task) ran twice")) }
        }
        return found
    }

    /// Serial: no two tasks at once; concurrent: no more than the width; never two ticks of one repeating task.
    private func exclusion(_ facts: ProgramFacts) -> [ProgramViolation] {
        var found: [ProgramViolation] = []
        for start in facts.starts {
            if traits.contains(.serial), let other = start.others.first {
                found.append(.init(rule: .s1, text: "\(start.task) began while \(other) was running"))
            }
            if let width, start.others.count + 1 > width {
                found.append(
                    .init(
                        rule: .p2,
                        text: "\(start.task) began while \(start.others.count) others ran (width \(width))"))
            }
            if start.ownTicksRunning > 0 {
                found.append(
                    .init(
                        rule: traits.contains(.concurrent) ? .p4 : .s1,
                        text: "tick \(start.tick) of \(start.task) began while an earlier tick ran"))
            }
            if traits.contains(.setsCurrent), !start.currentIsScheduler {
                found.append(.init(rule: .k1, text: "inside \(start.task), Schedulers.current was not the scheduler"))
            }
            if traits.contains(.asynchronous), start.onScheduleStack {
                found.append(.init(rule: .s5, text: "\(start.task) ran on the stack of a schedule call"))
            }
        }
        return found
    }

    /// Serial: one producer's work due at the call runs in the order it was scheduled (plain work S2, due-now and
    /// past deadlines T3); trampoline: work scheduled from inside a task runs after it returns, FIFO (R1).
    private func order(_ facts: ProgramFacts) -> [ProgramViolation] {
        var found: [ProgramViolation] = []
        let byProducer = Dictionary(grouping: facts.scheduled.values) { $0.producer?.number ?? 0 }
        for (_, entries) in byProducer {
            let queued = entries.filter { $0.isDueAtCall && $0.interval == nil }.sorted { $0.sequence < $1.sequence }
            guard queued.count > 1 else { continue }
            for (first, second) in zip(queued, queued.dropFirst()) {
                guard let a = facts.firstStart(of: first.task), let b = facts.firstStart(of: second.task),
                    b.sequence < a.sequence
                else { continue }
                let text = "\(second.task) ran before \(first.task), scheduled before it by the same producer"
                if traits.contains(.serial) {
                    let plain = first.deadline == nil && second.deadline == nil
                    found.append(.init(rule: plain ? .s2 : .t3, text: text))
                }
                if traits.contains(.trampoline), first.producer != nil {
                    found.append(.init(rule: .r1, text: text))
                }
            }
        }
        if traits.contains(.trampoline) {
            for entry in facts.scheduled.values where entry.deadline == nil {
                guard let parent = entry.producer, let start = facts.firstStart(of: entry.task),
                    let parentEnd = facts.ends[parent], start.sequence < parentEnd
                else { continue }
                found.append(.init(rule: .r1, text: "\(entry.task) ran inside \(parent), which scheduled it"))
            }
        }
        return found
    }

    /// What the scheduler still holds once the program settled: a cancelled task's closure (C4, C6 with its handle
    /// still held) or, with `cancelled` false, a finished one's (L5).
    private func held(_ facts: ProgramFacts, liveCaptures: [ProgramTask], cancelled wanted: Bool)
        -> [ProgramViolation]
    {
        liveCaptures.compactMap { task in
            guard let entry = facts.scheduled[task] else { return nil }
            let cancelled = facts.cancels(of: task).contains { $0.result == true }
            guard cancelled == wanted else { return nil }
            if cancelled {
                return .init(
                    rule: entry.interval == nil ? .c4 : .c6,
                    text: "the closure of \(task) was still held after cancel() returned true")
            }
            guard entry.interval == nil, facts.ends[task] != nil else { return nil }
            return .init(rule: .l5, text: "the closure of \(task) was still held after it ran")
        }
    }
}
