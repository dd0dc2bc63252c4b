import Foundation
import ToolSupport

extension Report {
    /// "SwiftNIO beside SchedulerKit": where NIO's event loop is ahead of SchedulerKit's backends and where it is behind,
    /// and why, in sentences computed from the run's rows (W1, W4, W5, W6, W9; a difference is claimed only beyond the
    /// noise), then what NIO keeps of the conformance rules when the matrix (`conformance.csv`) is at hand. Empty
    /// without NIO rows. W14 is left out: its one round after one task measures noise, not spinning.
    static func nioFindings(_ view: RunView, conformance: [ConformanceRow] = []) -> [String] {
        let findings = NIOFindings(view: view)
        guard findings.hasRows else { return [] }
        let aspects = findings.aspects()
        return aspects.map(\.sentence)
            + [findings.tally(aspects), NIOFindings.why, findings.conformance(conformance)].compactMap { $0 }
    }
}

/// One row of `conformance.csv` (written by `bench conformance`).
struct ConformanceRow: Sendable, Equatable {
    enum Outcome: String, Sendable {
        case passed, failed, declared
        case notApplicable = "n/a"
    }

    var rule: String
    /// The conformance backend's name (``Backend/conformanceName``).
    var backend: String
    var outcome: Outcome
    var detail: String

    /// Reads a `conformance.csv`.
    static func read(_ path: String) throws -> [ConformanceRow] {
        try CSVTable(contentsOf: path, required: ["rule", "backend", "outcome", "detail"]).records.map { record in
            guard let outcome = Outcome(rawValue: try record.text("outcome")) else {
                throw record.error("outcome is \"\(record["outcome"] ?? "")\", not passed, failed, declared or n/a")
            }
            return ConformanceRow(
                rule: try record.text("rule"), backend: try record.text("backend"), outcome: outcome,
                detail: try record.text("detail"))
        }
    }
}

/// The NIO rows of a run beside SchedulerKit's, and how they compare.
struct NIOFindings {
    let view: RunView
    static let eventLoop = BackendID.nioEventLoop
    static let threadPool = BackendID.nioThreadPool
    static let ours: [BackendID] = [.threadPool, .dispatch]

    var hasRows: Bool { view.rows.contains { $0.backend == Self.eventLoop || $0.backend == Self.threadPool } }

    func row(
        _ backend: BackendID, _ workload: WorkloadID, _ metric: Metric,
        _ parameters: Parameters = Parameters([:])
    ) -> SummaryRow? {
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
            compare("throughput (W1)", .throughput, .nsPerTask, Parameters([:]), format: ns),
            compare("a hop (W4 round trip)", .pingPong, .nsPerRoundTrip, Parameters([:]), format: microseconds),
            compare("start latency, idle (W5 p99)", .startLatency, .p99, Parameters([.load: 0]), format: microseconds),
            compare(
                "start latency, saturated (W5 p99)", .startLatency, .p99, Parameters([.load: 1]), format: microseconds),
            compare("timer lateness (W6 p99)", .timerLateness, .p99, Parameters([:]), format: microseconds),
            compare("allocations per task (W9)", .allocations, .allocsPerTask, Parameters([:]), format: count),
        ].compactMap { $0 }
    }

    /// Where the report sends a reader for the mechanisms behind each figure.
    static let why =
        "Why each figure falls where it does: [`Docs/Schedulers.md`](../Docs/Schedulers.md#swiftnio-beside-schedulerkit-why-the-figures-differ)."

    /// `nio-eventloop` against the best of SchedulerKit's `ours` in one cell, beside the wrapped primitive and the NIO
    /// thread pool where measured.
    private func compare(
        _ label: String, _ workload: WorkloadID, _ metric: Metric, _ parameters: Parameters,
        format: (SummaryRow) -> String
    ) -> Aspect? {
        guard let nio = row(Self.eventLoop, workload, metric, parameters) else { return nil }
        let ours = Self.ours.compactMap { row($0, workload, metric, parameters) }
            .sorted { $0.summary.median.value < $1.summary.median.value }
        guard let best = ours.first else { return nil }
        var figures = ["`\(Self.eventLoop)` \(format(nio))"]
        if let raw = row(.rawNIOExecute, workload, metric, parameters) {
            figures.append("raw `EventLoop.execute` \(format(raw))")
        }
        if let pool = row(Self.threadPool, workload, metric, parameters) {
            figures.append("`\(Self.threadPool)` \(format(pool))")
        }
        figures += ours.map { "`\($0.backend)` \(format($0))" }
        let verdict: String
        let nioAhead: Bool?
        switch view.versus(nio, best) {
        case .lower(let times):
            verdict = "NIO is ahead, \(Format.short(times))x below `\(best.backend)`"
            nioAhead = true
        case .higher(let times):
            verdict = "SchedulerKit is ahead, `\(best.backend)` \(Format.short(times))x below NIO"
            nioAhead = false
        case .withinNoise:
            verdict =
                nio.summary.median.value == best.summary.median.value
                ? "NIO is level with `\(best.backend)`"
                : "NIO is within noise of `\(best.backend)`"
            nioAhead = nil
        }
        return Aspect(
            label: label,
            sentence: label.prefix(1).uppercased() + label.dropFirst() + ": "
                + figures.joined(separator: ", ") + ". \(verdict).", nioAhead: nioAhead)
    }

    /// The adapter's own cost, and the summary of who is ahead where.
    func tally(_ aspects: [Aspect]) -> String? {
        guard !aspects.isEmpty else { return nil }
        func list(_ ahead: Bool?) -> String {
            let labels = aspects.filter { $0.nioAhead == ahead }.map(\.label)
            return labels.isEmpty ? "nothing" : labels.joined(separator: ", ")
        }
        var text =
            "In this run NIO is ahead on \(list(true)); SchedulerKit on \(list(false)); level or within noise: \(list(nil))."
        if let adapter = row(Self.eventLoop, .throughput, .nsPerTask),
            let raw = row(.rawNIOExecute, .throughput, .nsPerTask)
        {
            let cost =
                switch view.versus(adapter, raw) {
                case .lower(let times): "costs \(Format.short(times))x less than"
                case .higher(let times): "costs \(Format.short(times))x more than"
                case .withinNoise: "is within noise of"
                }
            text +=
                " The adapter itself (current scheduler and handle) \(cost) raw `EventLoop.execute` on W1 (\(ns(adapter)) against \(ns(raw)))."
        }
        return text
    }

    /// What the NIO adapters keep of the rules, from the conformance matrix, beside SchedulerKit's backends; each
    /// failure and declaration with the matrix's own words.
    func conformance(_ matrix: [ConformanceRow]) -> String? {
        let adapters = [Self.eventLoop, Self.threadPool].compactMap { id in
            Backend.withID(id)?.conformanceName.map { (id, $0) }
        }
        let parts = adapters.compactMap { bench, name -> String? in
            let mine = matrix.filter { $0.backend == name }
            guard !mine.isEmpty else { return nil }
            let passed = mine.filter { $0.outcome == .passed }.count
            let failed = mine.filter { $0.outcome == .failed }
            let declared = mine.filter { $0.outcome == .declared }
            var text =
                "`\(name)` (`\(bench)`) passes \(passed) of the \(mine.filter { $0.outcome != .notApplicable }.count) rules that apply"
            text +=
                failed.isEmpty ? "" : "; fails " + failed.map { "\($0.rule) (\($0.detail))" }.joined(separator: ", ")
            text +=
                declared.isEmpty
                ? "" : "; declares " + declared.map { "\($0.rule) (\($0.detail))" }.joined(separator: ", ")
            return text
        }
        guard !parts.isEmpty else { return nil }
        let missed = Set(
            matrix.filter { row in
                adapters.contains { $0.1 == row.backend } && (row.outcome == .failed || row.outcome == .declared)
            }.map(\.rule))
        var text =
            "Semantics (conformance matrix, [`CONFORMANCE.md`](CONFORMANCE.md)): " + parts.joined(separator: ". ") + "."
        let ours = Self.ours.compactMap { Backend.withID($0)?.conformanceName }.compactMap { name -> String? in
            let kept = missed.sorted().filter { rule in
                matrix.contains { $0.backend == name && $0.rule == rule && $0.outcome == .passed }
            }
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
