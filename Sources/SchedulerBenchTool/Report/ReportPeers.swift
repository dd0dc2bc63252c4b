import Foundation
import SchedulerBench
import SchedulerConformance
import ToolSupport

extension Report {
    /// "Peers beside SchedulerKit": for each peer library with rows in the run, where its schedulers are ahead of
    /// SchedulerKit's and where behind, in sentences computed from the run's rows (a difference is claimed only beyond
    /// the noise), then what the peer keeps of the conformance rules when the matrix (`conformance.csv`) is at hand.
    /// A peer without rows has no entry.
    static func peerFindings(_ view: RunView, conformance: [ConformanceRow] = []) -> [(peer: Peer, findings: [String])]
    {
        Peer.all.compactMap { peer in
            let findings = PeerFindings(peer: peer, view: view)
            guard findings.hasRows else { return nil }
            let aspects = findings.aspects()
            let lines =
                aspects.map(\.sentence)
                + [findings.tally(aspects), peer.why, findings.conformance(conformance)].compactMap { $0 }
            return (peer, lines)
        }
    }

    /// The REPORT.md section, or "" when the run has no peer rows.
    static func peersSection(_ view: RunView, conformance: [ConformanceRow]) -> String {
        let peers = peerFindings(view, conformance: conformance)
        guard !peers.isEmpty else { return "" }
        var text =
            "## Peers beside SchedulerKit\n\nOther libraries' schedulers through SchedulerKit's thin adapters, which add "
            + "only a handle and the current scheduler, beside SchedulerKit's `threadpool` and `dispatch` "
            + "(\(view.allocator.rawValue)). Each verdict compares the peer's first lane with the better of those two; "
            + "a difference is claimed only where the paired ratio's interval is clear of 1.\n\n"
        for (peer, findings) in peers {
            text += "### \(peer.title)\n\n\(peer.introduction)\n\n" + findings.map { "- \($0)" }.joined(separator: "\n")
            text += "\n\n"
        }
        return text
    }
}

/// A library whose schedulers `bench` runs beside SchedulerKit's, and how the report speaks of them.
struct Peer: Sendable {
    /// The name in verdicts: "NIO is ahead".
    let name: String
    let title: String
    /// The lane each verdict is about: the peer's most used scheduler.
    let primary: BackendID
    /// The peer's other lanes, listed beside it.
    let others: [BackendID]
    /// How sentences name the primitive `primary` wraps, and what the difference to it is made of.
    let raw: (label: String, cost: String)
    let introduction: String
    /// Where the report sends a reader for the mechanisms behind each figure.
    let why: String
    /// Lanes besides `primary` whose W17 batching the page shows.
    var notableDrain: [BackendID] = []

    var lanes: [BackendID] { [primary] + others }

    /// The lanes REPORT.md shows in W17's table (every lane is in FIGURES.md): the main one, and any whose batching
    /// sets it apart.
    var drainedOnPage: [BackendID] { [primary] + notableDrain }

    static let all: [Peer] = {
        var peers: [Peer] = []
        #if NIO
            peers.append(nio)
        #endif
        #if Combine
            peers.append(combine)
        #endif
        return peers
    }()
}

/// A peer's rows of a run beside SchedulerKit's, and how they compare.
struct PeerFindings {
    let peer: Peer
    let view: RunView
    static let ours: [BackendID] = [.threadPool, .dispatch]

    var hasRows: Bool { view.rows.contains { peer.lanes.contains($0.backend) } }

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
        let peerAhead: Bool?
        /// The peer's row, SchedulerKit's best row, and how the first compares with the second.
        let theirs: SummaryRow
        let best: SummaryRow
        let versus: Versus
        /// `theirs` and `best` as the sentence writes them.
        let figures: (theirs: String, best: String)
    }

    /// W14 is left out: its one round after one task measures noise, not spinning. W17 is left out too: its per-event
    /// cost follows how many events each drain batches (``Report/drainedTable(_:)``), not the scheduler's speed.
    func aspects() -> [Aspect] {
        [
            compare("throughput (W1)", .throughput, .nsPerTask, Parameters([:]), format: ns),
            compare("a hop (W4 round trip)", .pingPong, .nsPerRoundTrip, Parameters([:]), format: microseconds),
            compare("start latency, idle (W5 p99)", .startLatency, .p99, Parameters([.load: 0]), format: microseconds),
            compare(
                "start latency, saturated (W5 p99)", .startLatency, .p99, Parameters([.load: 1]), format: microseconds),
            compare("timer lateness (W6 p99)", .timerLateness, .p99, Parameters([:]), format: microseconds),
            compare("allocations per task (W9)", .allocations, .allocsPerTask, Parameters([:]), format: count),
            compare("observe(on:), a schedule per event (W16)", .observeOn, .nsPerEvent, Parameters([:]), format: ns),
            compare("Combine's receive(on:) (W18)", .receiveOn, .nsPerEvent, Parameters([:]), format: ns),
        ].compactMap { $0 }
    }

    /// `peer.primary` against the best of SchedulerKit's `ours` in one cell, beside the wrapped primitive and the
    /// peer's other lanes where measured.
    private func compare(
        _ label: String, _ workload: WorkloadID, _ metric: Metric, _ parameters: Parameters,
        format: (SummaryRow) -> String
    ) -> Aspect? {
        guard let theirs = row(peer.primary, workload, metric, parameters) else { return nil }
        let ours = Self.ours.compactMap { row($0, workload, metric, parameters) }
            .sorted { $0.summary.median.value < $1.summary.median.value }
        guard let best = ours.first else { return nil }
        var figures = ["`\(peer.primary)` \(format(theirs))"]
        if let wrapped = theirs.reference, let raw = row(wrapped, workload, metric, parameters) {
            figures.append("\(peer.raw.label) \(format(raw))")
        }
        figures += peer.others.compactMap { id in row(id, workload, metric, parameters).map { "`\(id)` \(format($0))" }
        }
        figures += ours.map { "`\($0.backend)` \(format($0))" }
        let verdict: String
        let peerAhead: Bool?
        let versus = view.versus(theirs, best)
        switch versus {
        case .lower(let times):
            verdict = "\(peer.name) is ahead, \(Format.short(times))x below `\(best.backend)`"
            peerAhead = true
        case .higher(let times):
            verdict = "SchedulerKit is ahead, `\(best.backend)` \(Format.short(times))x below \(peer.name)"
            peerAhead = false
        case .withinNoise:
            verdict =
                theirs.summary.median.value == best.summary.median.value
                ? "\(peer.name) is level with `\(best.backend)`"
                : "\(peer.name) is within noise of `\(best.backend)`"
            peerAhead = nil
        }
        return Aspect(
            label: label,
            sentence: label.prefix(1).uppercased() + label.dropFirst() + ": "
                + figures.joined(separator: ", ") + ". \(verdict).", peerAhead: peerAhead, theirs: theirs, best: best,
            versus: versus, figures: (format(theirs), format(best)))
    }

    /// The summary of who is ahead where, and what the peer's wrapping costs over the primitive it wraps.
    func tally(_ aspects: [Aspect]) -> String? {
        guard !aspects.isEmpty else { return nil }
        func list(_ ahead: Bool?) -> String {
            let labels = aspects.filter { $0.peerAhead == ahead }.map(\.label)
            return labels.isEmpty ? "nothing" : labels.joined(separator: ", ")
        }
        var text =
            "In this run `\(peer.primary)` is ahead on \(list(true)); SchedulerKit on \(list(false)); level or within noise: \(list(nil))."
        if let theirs = row(peer.primary, .throughput, .nsPerTask), let wrapped = theirs.reference,
            let raw = row(wrapped, .throughput, .nsPerTask)
        {
            let cost =
                switch view.versus(theirs, raw) {
                case .lower(let times): "costs \(Format.short(times))x less than"
                case .higher(let times): "costs \(Format.short(times))x more than"
                case .withinNoise: "is within noise of"
                }
            text +=
                " On W1, `\(peer.primary)` (\(peer.raw.cost)) \(cost) \(peer.raw.label) (\(ns(theirs)) against \(ns(raw)))."
        }
        return text
    }

    /// What the peer's schedulers keep of the rules, from the conformance matrix, beside SchedulerKit's backends;
    /// each failure and declaration with the matrix's own words.
    func conformance(_ matrix: [ConformanceRow]) -> String? {
        let adapters = peer.lanes.compactMap { id in Catalog.backend(id)?.conformanceName.map { (id, $0) } }
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
        let ours = Self.ours.compactMap { Catalog.backend($0)?.conformanceName }.compactMap { name -> String? in
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

#if NIO
    extension Peer {
        static let nio = Peer(
            name: "NIO", title: "SwiftNIO", primary: .nioEventLoop, others: [.nioThreadPool],
            raw: ("raw `EventLoop.execute`", "the adapter itself: the current scheduler and the handle"),
            introduction:
                "NIO's event loop through `EventLoopScheduler` (`nio-eventloop`), beside raw `EventLoop.execute` "
                + "(`raw-nio-execute`) and the `NIOThreadPool` adapter (`nio-threadpool`).",
            why:
                "Why each figure falls where it does: [`Docs/Schedulers.md`](../Docs/Schedulers.md#swiftnio-beside-schedulerkit-why-the-figures-differ)."
        )
    }
#endif

#if Combine
    extension Peer {
        static let combine = Peer(
            name: "Combine", title: "Combine (OpenCombine)", primary: .combineDispatch,
            others: [.combineOperationQueue, .combineRunLoop, .combineImmediate],
            raw: ("raw `DispatchQueue.async`", "Combine's `DispatchQueue` scheduler and the adapter together"),
            introduction:
                "Combine's `DispatchQueue` scheduler through `CombineSchedulerAdapter` (`combine-dispatch`, on a serial queue "
                + "targeting the global queue, as `raw-dispatch-global` is), beside its `OperationQueue`, `RunLoop` and "
                + "`ImmediateScheduler` (which runs each action on the caller's stack, so its figures are a call's, not a hop's). "
                + "`combine-runloop` does not run the workloads that wait for one task at a time (W4, W5): its serving "
                + "threads notice new work only at their next 1 ms slice ([`Docs/Workloads.md`](../Docs/Workloads.md)).",
            why:
                "Why each figure falls where it does: [`Docs/Combine.md`](../Docs/Combine.md#combine-beside-schedulerkit-why-the-figures-differ).",
            notableDrain: [.combineRunLoop]
        )
    }
#endif
