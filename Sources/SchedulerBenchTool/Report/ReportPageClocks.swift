import Foundation
import SchedulerBench
import SchedulerBenchPeers
import SchedulerConformance
import ToolSupport

extension Report {
    /// The page's section on executors and clocks: how repeating timers keep to their plan (W20), actors on NIO's own
    /// executor beside SchedulerKit's over the same loop (W11, W13), and what one advance of a virtual clock costs
    /// per sleeper (W21). Empty when the run has none of them.
    static func executorsAndClocks(_ view: RunView) -> [String] {
        let lanes: [BackendID] =
            ours(handOff: true).filter { !(Catalog.backend($0)?.has(.concurrent) ?? true) }
            + Peer.all.map(\.primary) + [.continuousClock]
        let timers = lanes.filter { view.row($0, .timerDrift, .driftPerTick) != nil }
        let figures = { (metric: Metric) in
            timers.compactMap { lane in
                view.row(lane, .timerDrift, metric).map { "`\(lane)` \(duration($0.summary.median))" }
            }.joined(separator: ", ")
        }
        let notes = [
            timers.isEmpty
                ? nil
                : "Repeating timers every 1 ms (W20), drift per tick beyond the plan (an interval around 0 is a fixed "
                    + "rate; a timer that counts from the last tick drifts by each tick's cost): "
                    + figures(.driftPerTick) + "; the last tick ran behind its plan by " + figures(.lastTickLateness)
                    + ". `continuous-clock` is swift-async-algorithms' `AsyncTimerSequence` on `ContinuousClock`.",
            nioExecutorNote(view), virtualClockNote(view),
        ].compactMap { $0 }
        return notes.isEmpty
            ? [] : ["## Executors and clocks (W20, W11 and W13 on NIO's executor, W21)", ""] + notes.map { "- " + $0 }
    }

    /// Actors on NIO's own `EventLoop.executor` (the `raw-nio-execute` reference) beside `SchedulerExecutor` over the
    /// same kind of loop (`nio-eventloop`), paired by round.
    private static func nioExecutorNote(_ view: RunView) -> String? {
        #if NIO
            let global = Parameters([:], choices: [.caller: ActorHopCaller.global.rawValue])
            let pairs: [(String, WorkloadID, Metric, Parameters)] = [
                ("an actor call from the global executor", .actorHop, .nsPerCall, global),
                ("an actor round trip", .actorPingPong, .nsPerRoundTrip, Parameters([:])),
            ]
            let parts = pairs.compactMap { label, workload, metric, parameters -> String? in
                guard let nio = view.row(.rawNIOExecute, workload, metric, parameters),
                    let ours = view.row(.nioEventLoop, workload, metric, parameters)
                else { return nil }
                let ratio =
                    view.ratio(ours, nio).map { ", `SchedulerExecutor` over `nio-eventloop` " + Format.present($0) }
                    ?? ""
                return "\(label) \(duration(nio.summary.median))\(ratio)"
            }
            guard !parts.isEmpty else { return nil }
            return "Actors on NIO's own executor (`EventLoop.executor`, reference `raw-nio-execute`): "
                + parts.joined(separator: "; ") + "."
        #else
            return nil
        #endif
    }

    /// One advance of a virtual clock waking every sleeper (W21): SchedulerKit's clock over `TestScheduler` beside
    /// swift-clocks' `TestClock`.
    private static func virtualClockNote(_ view: RunView) -> String? {
        let clocks: [(BackendID, String)] = [
            (.testScheduler, "`SchedulerClock` over `TestScheduler`"),
            (.swiftClocksTestClock, "swift-clocks' `TestClock`"),
        ]
        let rows = clocks.compactMap { id, name in view.row(id, .virtualSleepers, .nsPerSleeper).map { (name, $0) } }
        guard let first = rows.first else { return nil }
        let sleepers = first.1.parameters[.sleepers]
        return "One advance of a virtual clock waking \(sleepers) sleepers (W21), per sleeper: "
            + rows.map { "\($0.0) \(duration($0.1.summary.median))" }
            .joined(separator: ", ") + "."
    }

    /// Nanoseconds as people read them: in ns below a microsecond, else in µs, with the interval.
    private static func duration(_ estimate: Estimate) -> String {
        let (unit, size) = abs(estimate.value) < 1000 ? ("ns", 1.0) : ("µs", 1000.0)
        let scaled = Estimate(value: estimate.value / size, low: estimate.low / size, high: estimate.high / size)
        return Format.interval(value: scaled.value, low: scaled.low, high: scaled.high, Format.short) + " " + unit
    }
}
