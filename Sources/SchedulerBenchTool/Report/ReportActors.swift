import Foundation
import SchedulerBench
import SchedulerConformance
import ToolSupport

extension Report {
    /// "Actors or schedulers?": when an actor on the default executor is the better choice and when a scheduler's
    /// executor is, in sentences computed from W11–W13 and their allocation rows. Empty without actor rows.
    static func actorFindings(_ view: RunView) -> [String] {
        let findings = ActorFindings(view: view)
        return [
            findings.defaultActor(), findings.callerOnBackend(), findings.pingPong(), findings.tasks(),
            findings.allocations(),
        ]
        .compactMap { $0 } + (findings.hasRows ? [ActorFindings.semantics] : [])
    }
}

/// The rows of W11–W13 and how to compare them.
struct ActorFindings {
    let view: RunView
    static let schedulers: [BackendID] = [.dispatch, .threadPool, .operationQueue]
    static let reference = BackendID.defaultExecutor
    static let semantics =
        "Whatever the cost, only a scheduler's executor runs an actor's jobs on a known thread or queue, "
        + "with `Schedulers.current` set, in one FIFO order with the scheduler's other work, and under virtual time on a `TestScheduler` "
        + "(conformance rules E1–E5); a default actor promises none of these. Pick the scheduler when one of them is needed, and by the figures above when none is."

    var hasRows: Bool { view.rows.contains { [.actorHop, .taskLifecycle, .actorPingPong].contains($0.workload) } }

    /// A row of W11–W13, with the calling task's place (W11, W12) if given.
    func row(_ backend: BackendID, _ workload: WorkloadID, _ metric: Metric, caller: ActorHopCaller? = nil)
        -> SummaryRow?
    {
        view.row(
            backend, workload, metric,
            caller.map { Parameters([:], choices: [.caller: $0.rawValue]) } ?? Parameters([:]))
    }

    /// The scheduler backends' rows of a cell, cheapest first.
    func schedulerRows(_ workload: WorkloadID, _ metric: Metric, caller: ActorHopCaller? = nil) -> [SummaryRow] {
        Self.schedulers.compactMap { row($0, workload, metric, caller: caller) }
            .sorted { $0.summary.median.value < $1.summary.median.value }
    }

    func defaultActor() -> String? {
        guard let reference = row(Self.reference, .actorHop, .nsPerCall, caller: .global) else { return nil }
        let others = schedulerRows(.actorHop, .nsPerCall, caller: .global)
        guard let best = others.first else { return nil }
        let list = others.map { "`\($0.backend)` \(ns($0))" }.joined(separator: ", ")
        let verdict: String
        switch view.versus(reference, best) {
        case .lower(let times):
            verdict =
                "**An actor on the default executor** is the better choice for state that Swift-concurrency code calls into and that "
                + "needs no particular thread: from a task on the global executor (W11, caller=global) a call into it costs \(ns(reference)), "
                + "\(Format.short(times))x less than into an actor on the cheapest scheduler executor, whose jobs the runtime must "
                + "enqueue on the scheduler where it can run a default actor's job on the caller's thread"
        case .higher(let times):
            verdict =
                "From a task on the global executor (W11, caller=global) a call into an actor on the cheapest scheduler executor is "
                + "\(Format.short(times))x cheaper than into a default actor (\(ns(reference)))"
        case .withinNoise:
            verdict =
                "From a task on the global executor (W11, caller=global) a call into a default actor (\(ns(reference))) is within noise "
                + "of one into an actor on the cheapest scheduler executor"
        }
        return verdict + " (\(list))."
    }

    func callerOnBackend() -> String? {
        let pairs = Self.schedulers.compactMap { name -> (SummaryRow, SummaryRow)? in
            guard let inside = row(name, .actorHop, .nsPerCall, caller: .backend),
                let outside = row(name, .actorHop, .nsPerCall, caller: .global)
            else { return nil }
            return (inside, outside)
        }
        guard !pairs.isEmpty else { return nil }
        let each = pairs.map { inside, outside in
            "`\(inside.backend)` \(ns(inside)) instead of \(ns(outside)) (\(view.versus(inside, outside).phrase(lower: "less", higher: "more")))"
        }.joined(separator: "; ")
        let cheaper = pairs.filter { if case .lower = view.versus($0.0, $0.1) { true } else { false } }.map(\.0.backend)
        let setting =
            "the caller already runs on the backend (W11, caller=backend: the calling task prefers an executor over a second "
            + "scheduler of the same instance, so the hop stays inside the backend)"
        var text =
            cheaper.count == pairs.count
            ? "**A scheduler's executor** pays off when \(setting): a call costs \(each)."
            : "When \(setting), a call costs \(each)"
                + (cheaper.isEmpty
                    ? ": in this run that does not make the call cheaper on any backend."
                    : ": cheaper only on \(cheaper.map { "`\($0)`" }.joined(separator: ", ")) in this run.")
        guard let best = pairs.map(\.0).min(by: { $0.summary.median.value < $1.summary.median.value }),
            let reference = row(Self.reference, .actorHop, .nsPerCall, caller: .global)
        else { return text }
        switch view.versus(best, reference) {
        case .lower(let times):
            text +=
                " The cheapest, `\(best.backend)`, is \(Format.short(times))x cheaper than a default actor called from the global executor (\(ns(reference)))."
        case .higher(let times):
            text +=
                " Even the cheapest, `\(best.backend)`, is \(Format.short(times))x a default actor's call from the global executor (\(ns(reference))): "
                + "keep an actor on the caller's backend for where its jobs run, not for speed."
        case .withinNoise:
            text +=
                " The cheapest, `\(best.backend)`, is within noise of a default actor called from the global executor (\(ns(reference)))."
        }
        return text
    }

    func pingPong() -> String? {
        guard let reference = row(Self.reference, .actorPingPong, .nsPerRoundTrip),
            let best = schedulerRows(.actorPingPong, .nsPerRoundTrip).first
        else { return nil }
        let list = schedulerRows(.actorPingPong, .nsPerRoundTrip).map { "`\($0.backend)` \(ns($0))" }.joined(
            separator: ", ")
        let verdict =
            switch view.versus(best, reference) {
            case .lower(let times):
                "two actors on one `\(best.backend)` backend are \(Format.short(times))x cheaper than two default actors (\(ns(reference)))"
            case .higher(let times):
                "two default actors (\(ns(reference))) are \(Format.short(times))x cheaper than two actors on the cheapest backend"
            case .withinNoise:
                "two default actors (\(ns(reference))) are within noise of two actors on the cheapest backend"
            }
        return "Actors calling each other back and forth (W13, round trip): \(verdict) (\(list))."
    }

    func tasks() -> String? {
        guard let reference = row(Self.reference, .taskLifecycle, .nsPerTask, caller: .global),
            let best = schedulerRows(.taskLifecycle, .nsPerTask, caller: .global).first
        else { return nil }
        let list = schedulerRows(.taskLifecycle, .nsPerTask, caller: .global).map { "`\($0.backend)` \(ns($0))" }
            .joined(separator: ", ")
        let verdict =
            switch view.versus(best, reference) {
            case .lower(let times):
                "the cheapest, `\(best.backend)`, is \(Format.short(times))x cheaper than the global executor"
            case .higher(let times):
                "even the cheapest, `\(best.backend)`, costs \(Format.short(times))x the global executor's"
            case .withinNoise: "the cheapest, `\(best.backend)`, is within noise of the global executor"
            }
        var text =
            "Creating and awaiting a task (W12) from a task on the global executor (caller=global): \(ns(reference)) "
            + "with no preference; with an executor preference for a scheduler \(list): \(verdict)."
        let moved = Self.schedulers.compactMap { name -> String? in
            guard let inside = row(name, .taskLifecycle, .nsPerTask, caller: .backend),
                let outside = row(name, .taskLifecycle, .nsPerTask, caller: .global)
            else { return nil }
            return "`\(name)` \(ns(inside)) (\(view.versus(inside, outside).phrase(lower: "less", higher: "more")))"
        }
        if !moved.isEmpty {
            text +=
                " When the awaiting task itself runs on the backend (caller=backend): \(moved.joined(separator: ", ")). "
                + "A task that finishes resumes the task awaiting it on that task's executor, so with caller=global every task "
                + "crosses from the backend's threads to the global executor's and back; where that crossing costs a wake-up of a "
                + "parked thread, keep the awaiting code on the same backend."
        }
        return text
    }

    func allocations() -> String? {
        let cells: [(WorkloadID, Metric, ActorHopCaller?, String)] = [
            (.actorHop, .allocsPerCall, .global, "per call from the global executor"),
            (.actorHop, .allocsPerCall, .backend, "per call from the backend"),
            (.taskLifecycle, .allocsPerTask, .global, "per task awaited from the global executor"),
            (.taskLifecycle, .allocsPerTask, .backend, "per task awaited from the backend"),
            (.actorPingPong, .allocsPerRoundTrip, nil, "per round trip"),
        ]
        let parts = cells.compactMap { workload, metric, caller, label -> String? in
            let all = ([Self.reference] + Self.schedulers).compactMap { row($0, workload, metric, caller: caller) }
            guard !all.isEmpty else { return nil }
            return "\(label) (\(workload)): "
                + all.map { "`\($0.backend)` \(Format.short($0.summary.median.value))" }.joined(separator: ", ")
        }
        guard !parts.isEmpty else { return nil }
        return
            "Allocations of every thread (counted in a separate pass without thread caches; median of the counted rounds): "
            + parts.joined(separator: "; ") + ". Size-class bytes are in the `size_class_bytes_per_*` rows below."
    }

    private func ns(_ row: SummaryRow) -> String {
        let value = row.summary.median.value
        return value >= 10_000 ? "\(Format.short(value / 1000)) µs" : "\(Format.short(value)) ns"
    }
}
