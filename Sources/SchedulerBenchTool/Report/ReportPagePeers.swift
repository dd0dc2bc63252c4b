import Foundation
import SchedulerBench
import ToolSupport

extension Report {
    /// The page's peers section: per question, SchedulerKit's better of `threadpool` and `dispatch` beside each peer's
    /// main lane, with the verdict of their paired ratio. The sentence under it is the tally of the same aspects.
    static func peersTable(_ view: RunView, conformance: [ConformanceRow]) -> [String] {
        let peers = Peer.all.map { PeerFindings(peer: $0, view: view) }.filter(\.hasRows)
        guard !peers.isEmpty else { return [] }
        let aspects = peers.map { $0.aspects() }
        let labels = aspects.flatMap { $0.map(\.label) }.reduce(into: [String]()) {
            if !$0.contains($1) { $0.append($1) }
        }
        var lines = [
            "## Peers through thin adapters, beside SchedulerKit's better of `threadpool` and `dispatch`",
            "",
            "| question | SchedulerKit's best | "
                + peers.map { "\($0.peer.name) (`\($0.peer.primary)`): ahead or behind" }
                .joined(separator: " | ") + " |",
            "|---|---|" + String(repeating: "---|", count: peers.count),
        ]
        for label in labels {
            guard let any = aspects.lazy.compactMap({ $0.first { $0.label == label } }).first else { continue }
            let cells = aspects.map { peerAspects -> String in
                guard let aspect = peerAspects.first(where: { $0.label == label }) else { return "-" }
                let figure = aspect.figures.theirs
                switch aspect.versus {
                case .lower(let times): return "\(figure): ahead, \(Format.short(times))x"
                case .higher(let times): return "\(figure): behind, \(Format.short(times))x"
                case .withinNoise: return "\(figure): level"
                }
            }
            lines.append(
                "| \(label) | `\(any.best.backend)` \(any.figures.best) | "
                    + cells.joined(separator: " | ") + " |")
        }
        lines +=
            [""] + zip(peers, aspects).compactMap { findings, aspects in findings.tally(aspects).map { "- " + $0 } }
        if view.row(.threadPool, .observeOnDrain, .nsPerEvent) != nil {
            lines += [
                "",
                "Observe(on:), drained (W17), is not ranked: each drain takes every event queued while it runs, so the "
                    + "cost per event follows the batch size (every lane, with its batches: [`FIGURES.md`](FIGURES.md)).",
            ]
        }
        return lines
    }

    /// W17, not ranked: a drained `observe(on:)` delivers as many events per drain as arrive while one runs, so its
    /// per-event cost follows the batching (and how often producer and drain meet on the mailbox's lock), which the
    /// table shows beside it.
    static func drainedTable(_ view: RunView) -> [String] {
        let lanes = ([.immediate] + ours(handOff: true) + Peer.all.flatMap(\.drainedOnPage) + [.spinHandOff])
            .filter { view.row($0, .observeOnDrain, .nsPerEvent) != nil }
        guard !lanes.isEmpty else { return [] }
        var lines = [
            "## Observe(on:), drained (W17)",
            "",
            "Not ranked on the page: each drain takes every event queued while it runs, so the cost per event follows the "
                + "batch size and how often the producer meets a running drain on the mailbox's lock.",
            "",
            "| lane | ns/event | events per drain | sends during a drain |",
            "|---|---:|---:|---:|",
        ]
        for lane in lanes {
            let figure = { (metric: Metric, suffix: String) in
                view.row(lane, .observeOnDrain, metric).map { Format.short($0.summary.median.value) + suffix }
                    ?? "not recorded"
            }
            lines.append(
                "| `\(lane)` | \(figure(.nsPerEvent, "")) | \(figure(.eventsPerDrain, "")) | \(figure(.sendsDuringDrain, " %")) |"
            )
        }
        return lines
    }
}
