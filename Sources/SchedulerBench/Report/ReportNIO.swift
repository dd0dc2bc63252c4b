import Foundation

extension Report {
    /// "SwiftNIO beside SchedulerKit": where NIO's event loop is ahead of SchedulerKit's backends and where it is behind,
    /// and why, in sentences computed from the run's rows (W1, W4, W5, W6, W9; a difference is claimed only beyond the
    /// noise), then what NIO keeps of the conformance rules when the matrix (`conformance.csv`) is at hand. Empty
    /// without NIO rows. W14 is left out: its one round after one task measures noise, not spinning.
    static func nioFindings(_ view: RunView, conformance: [ConformanceRow] = []) -> [String] {
        let findings = NIOFindings(view: view)
        guard findings.hasRows else { return [] }
        let aspects = findings.aspects()
        return aspects.map(\.sentence) + [findings.tally(aspects), findings.conformance(conformance)].compactMap { $0 }
    }
}

/// One row of `conformance.csv` (written by `bench conformance`).
struct ConformanceRow: Sendable, Equatable {
    var rule: String
    var backend: String
    /// passed, failed, declared or n/a.
    var outcome: String
    var detail: String

    /// Reads a `conformance.csv`.
    static func read(_ path: String) throws -> [ConformanceRow] {
        try CSVTable(contentsOf: path, required: ["rule", "backend", "outcome", "detail"]).records.map {
            ConformanceRow(rule: $0["rule"]!, backend: $0["backend"]!, outcome: $0["outcome"]!, detail: $0["detail"]!)
        }
    }
}

/// The NIO rows of a run beside SchedulerKit's, and how they compare.
struct NIOFindings {
    let view: RunView
    static let eventLoop = BackendID.nioEventLoop
    static let threadPool = BackendID.nioThreadPool
    static let ours: [BackendID] = [.threadPool, .dispatch]
    /// The conformance backends of the NIO adapters, by bench backend.
    static let conformanceNames: [BackendID: String] = [eventLoop: "EventLoopScheduler", threadPool: "NIOThreadPoolScheduler"]

    var hasRows: Bool { view.rows.contains { $0.backend == Self.eventLoop || $0.backend == Self.threadPool } }

    func row(_ backend: BackendID, _ workload: WorkloadID, _ metric: Metric,
             _ parameters: Parameters = Parameters([:])) -> SummaryRow? {
        view.row(backend, workload, metric, parameters)
    }

    /// One compared figure: the sentence, and who is ahead (nil: within noise, or not measured).
    struct Aspect {
        let label: String
        let sentence: String
        let nioAhead: Bool?
    }

    func aspects() -> [Aspect] {
        [
            compare("throughput (W1)", .throughput, .nsPerTask, Parameters([:]), format: ns,
                    behind: "each `execute` takes two locks (the loop's state and its task queue) and wakes an idle loop by writing its eventfd",
                    oursHow: "pushes onto a lock-free queue",
                    ahead: "a busy loop drains up to 4 096 queued closures per lock and needs no wake-up"),
            compare("a hop (W4 round trip)", .pingPong, .nsPerRoundTrip, Parameters([:]), format: microseconds,
                    behind: "an event loop is one thread, so every hop lands on the other loop's thread and, when that thread sleeps in epoll_wait, wakes it through its eventfd",
                    oursHow: "lets a free worker that is still spinning take the next scheduler's task without a wake-up",
                    ahead: "the loops' eventfd wake-ups were quicker than our hand-offs in this run"),
            compare("start latency, idle (W5 p99)", .startLatency, .p99, Parameters([.load: 0]), format: microseconds,
                    behind: "an idle loop sleeps in epoll_wait and every probe pays its wake-up",
                    oursHow: "finds a worker still spinning after the previous probe",
                    ahead: "waking the probe's own loop was quicker than our hand-off in this run"),
            compare("start latency, saturated (W5 p99)", .startLatency, .p99, Parameters([.load: 1]), format: microseconds,
                    behind: "a scheduler is pinned to its loop, so a probe waits behind the busy work on that loop's one thread",
                    oursHow: "gives the probe's scheduler to whichever worker frees up first",
                    ahead: "a probe waits only for the current task of its own loop"),
            compare("timer lateness (W6 p99)", .timerLateness, .p99, Parameters([:]), format: microseconds,
                    behind: "every firing goes through the loop's timerfd and a return from epoll_wait",
                    oursHow: "sleeps on its condition variable with a time-out at the earliest deadline",
                    ahead: "each loop sleeps on a timerfd armed for its earliest deadline and runs due timers on its own thread, with nothing to hand over"),
            compare("allocations per task (W9)", .allocations, .allocsPerTask, Parameters([:]), format: count,
                    behind: "the adapter adds a closure context (the scheduler and the work) to what NIO's queue allocates",
                    oursHow: nil,
                    ahead: "NIO's queue stores the closure itself, so the adapter's one allocation is the closure context that sets the current scheduler, where SchedulerKit allocates a task node that is also the cancellable handle"),
        ].compactMap { $0 }
    }

    /// `nio-eventloop` against the best of SchedulerKit's `ours` in one cell, beside the wrapped primitive and the NIO
    /// thread pool where measured. `behind` says why NIO is behind, `oursHow` what `threadpool` does instead (said only
    /// when it is the one ahead), `ahead` why NIO is ahead.
    private func compare(_ label: String, _ workload: WorkloadID, _ metric: Metric, _ parameters: Parameters,
                         format: (SummaryRow) -> String, behind: String, oursHow: String?, ahead: String) -> Aspect? {
        guard let nio = row(Self.eventLoop, workload, metric, parameters) else { return nil }
        let ours = Self.ours.compactMap { row($0, workload, metric, parameters) }
            .sorted { $0.summary.median.value < $1.summary.median.value }
        guard let best = ours.first else { return nil }
        var figures = ["`\(Self.eventLoop)` \(format(nio))"]
        if let raw = row(.rawNIOExecute, workload, metric, parameters) {
            figures.append("raw `EventLoop.execute` \(format(raw))")
        }
        if let pool = row(Self.threadPool, workload, metric, parameters) { figures.append("`\(Self.threadPool)` \(format(pool))") }
        figures += ours.map { "`\($0.backend)` \(format($0))" }
        let verdict: String
        let nioAhead: Bool?
        switch view.versus(nio, best) {
        case .lower(let times):
            verdict = "NIO is ahead, \(Format.short(times))x below `\(best.backend)`: \(ahead)"
            nioAhead = true
        case .higher(let times):
            let how = best.backend == .threadPool ? oursHow.map { "; `threadpool` \($0)" } ?? "" : ""
            verdict = "SchedulerKit is ahead, `\(best.backend)` \(Format.short(times))x below NIO: \(behind)\(how)"
            nioAhead = false
        case .withinNoise:
            verdict = nio.summary.median.value == best.summary.median.value ? "NIO is level with `\(best.backend)`" : "NIO is within noise of `\(best.backend)`"
            nioAhead = nil
        }
        return Aspect(label: label, sentence: label.prefix(1).uppercased() + label.dropFirst() + ": "
                      + figures.joined(separator: ", ") + ". \(verdict).", nioAhead: nioAhead)
    }

    /// The adapter's own cost, and the summary of who is ahead where.
    func tally(_ aspects: [Aspect]) -> String? {
        guard !aspects.isEmpty else { return nil }
        func list(_ ahead: Bool?) -> String {
            let labels = aspects.filter { $0.nioAhead == ahead }.map(\.label)
            return labels.isEmpty ? "nothing" : labels.joined(separator: ", ")
        }
        var text = "In this run NIO is ahead on \(list(true)); SchedulerKit on \(list(false)); level or within noise: \(list(nil))."
        if let adapter = row(Self.eventLoop, .throughput, .nsPerTask), let raw = row(.rawNIOExecute, .throughput, .nsPerTask) {
            let cost = switch view.versus(adapter, raw) {
            case .lower(let times): "costs \(Format.short(times))x less than"
            case .higher(let times): "costs \(Format.short(times))x more than"
            case .withinNoise: "is within noise of"
            }
            text += " The adapter itself (current scheduler and handle) \(cost) raw `EventLoop.execute` on W1 (\(ns(adapter)) against \(ns(raw)))."
        }
        return text
    }

    /// Why NIO does not keep a rule, for the rules it fails or declares by design.
    static let nioReasons = [
        "C1": "`execute`d and submitted work cannot be cancelled at all",
        "C4": "`execute`d and submitted work cannot be cancelled at all",
        "C2": "a delayed task's cancel is not truthful once the loop has taken the task into the batch it is running",
        "T3": "due delayed work interleaves with plain work instead of queueing behind it",
        "T6": "repeating work is fixed-delay",
    ]

    /// What the NIO adapters keep of the rules, from the conformance matrix, beside SchedulerKit's backends.
    func conformance(_ matrix: [ConformanceRow]) -> String? {
        let nioNames = Self.conformanceNames.sorted { $0.key < $1.key }
        let parts = nioNames.compactMap { bench, name -> String? in
            let mine = matrix.filter { $0.backend == name }
            guard !mine.isEmpty else { return nil }
            let passed = mine.filter { $0.outcome == "passed" }.count
            let failed = mine.filter { $0.outcome == "failed" }
            let declared = mine.filter { $0.outcome == "declared" }.map(\.rule)
            var text = "`\(name)` (`\(bench)`) passes \(passed) of the \(mine.filter { $0.outcome != "n/a" }.count) rules that apply"
            text += failed.isEmpty ? "" : "; fails " + failed.map { "\($0.rule) (\($0.detail))" }.joined(separator: ", ")
            text += declared.isEmpty ? "" : "; declares " + declared.joined(separator: ", ")
            return text
        }
        guard !parts.isEmpty else { return nil }
        let missed = Set(matrix.filter { row in nioNames.contains { $0.value == row.backend } && (row.outcome == "failed" || row.outcome == "declared") }.map(\.rule))
        let why = Array(Set(missed.compactMap { Self.nioReasons[$0] })).sorted()
        var text = "Semantics (conformance matrix, [`CONFORMANCE.md`](CONFORMANCE.md)): " + parts.joined(separator: ". ") + "."
        if !why.isEmpty { text += " In NIO " + why.joined(separator: "; ") + "." }
        let ours = ["ThreadPoolScheduler", "DispatchQueueScheduler"].compactMap { name -> String? in
            let kept = missed.sorted().filter { rule in matrix.contains { $0.backend == name && $0.rule == rule && $0.outcome == "passed" } }
            return kept.isEmpty ? nil : "`\(name)` passes \(kept.joined(separator: ", "))"
        }
        if !ours.isEmpty { text += " " + ours.joined(separator: "; ") + "." }
        return text
    }

    private func ns(_ row: SummaryRow) -> String { Format.short(row.summary.median.value) + " ns" }
    /// Microseconds, or milliseconds from 1 ms up.
    private func microseconds(_ row: SummaryRow) -> String {
        let value = row.summary.median.value
        return value >= 1_000_000 ? Format.short(value / 1_000_000) + " ms" : Format.short(value / 1000) + " µs"
    }
    private func count(_ row: SummaryRow) -> String { Format.short(row.summary.median.value) }
}
