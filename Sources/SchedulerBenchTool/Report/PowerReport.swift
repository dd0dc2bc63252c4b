import SchedulerBench
import SchedulerConformance
import ToolSupport

/// `bench power`'s files: every trial's verdict (`power.csv`) and the operating characteristic per backend
/// (`POWER.md`): how often each planted slowdown was called slower, and how often a build against itself was marked.
enum PowerReport {
    /// Every trial's verdict, each naming the pairing that measured it.
    static func csv(_ trials: [PowerSession.Trial], pairing: Pairing) -> String {
        let header = [
            "effect", "trial_effect", "trial", "backend", "workload", "metric", "pairs", "ratio", "ratio_low",
            "ratio_high", "verdict",
            "smallest_callable", "seconds", "pairing",
        ]
        return CSV.encode(
            [header]
                + trials.map {
                    [
                        Format.number($0.effect), Format.number($0.trialEffect), String($0.index),
                        $0.line.cell.backend.rawValue,
                        $0.line.cell.workload.rawValue, $0.line.cell.metric.name, String($0.line.pairs),
                        Format.number($0.line.ratio.value), Format.number($0.line.ratio.low),
                        Format.number($0.line.ratio.high), $0.line.verdict.rawValue,
                        $0.line.smallestCallable.map(Format.number) ?? "", Format.short($0.seconds),
                        pairing.rawValue,
                    ]
                })
    }

    /// The effects asked for, and 0 where unplanted backends (`--plant`) gave A/A cells though 0 was not asked for.
    static func shownEffects(_ trials: [PowerSession.Trial], request: PowerRequest) -> [Double] {
        trials.contains { $0.effect == 0 } && !request.effects.contains(0) ? [0] + request.effects : request.effects
    }

    /// "4/5": how many of a cell's trials read `verdict`.
    static func rate(_ trials: [PowerSession.Trial], _ verdicts: Set<ABAnalysis.Verdict>) -> String {
        "\(trials.filter { verdicts.contains($0.line.verdict) }.count)/\(trials.count)"
    }

    /// The operating characteristic as chart points: per backend, the share of trials called slower at each planted
    /// effect, and at 0 the share of A/A trials marked at all.
    static func chartPoints(_ trials: [PowerSession.Trial], effects: [Double], margin: Double) -> [Charts.Point] {
        let backends = trials.map(\.line.cell.backend).reduce(into: [BackendID]()) {
            if !$0.contains($1) { $0.append($1) }
        }
        return backends.flatMap { backend in
            effects.compactMap { effect -> Charts.Point? in
                let cell = trials.filter { $0.line.cell.backend == backend && $0.effect == effect }
                guard !cell.isEmpty else { return nil }
                let verdicts: Set<ABAnalysis.Verdict> = effect == 0 ? [.faster, .slower] : [.slower]
                let share = Double(cell.filter { verdicts.contains($0.line.verdict) }.count) / Double(cell.count)
                return Charts.Point(
                    chart: .power, row: 0, column: 0,
                    panelTitle: "\(cell[0].line.cell.workload), margin ±\(Format.short(margin * 100)) %",
                    yLabel: "share of trials", style: .rateLines, x: "\(Format.short(effect * 100)) %",
                    series: backend.rawValue, value: share, low: nil, high: nil)
            }
        }
    }

    /// The effect the plant really had: the median of every pair's ratio over the trials, with its interval.
    static func pooledEffect(_ trials: [PowerSession.Trial]) -> String {
        let ratios = trials.flatMap(\.ratios)
        guard !ratios.isEmpty else { return "" }
        return "(" + Format.present(Statistics.medianEstimate(ratios, confidence: 0.99)) + ")"
    }

    /// The median over A/A trials of the interval's half-width at the trial's end: the smallest change a trial of
    /// this length could call, whatever the margin.
    static func halfWidth(_ nulls: [PowerSession.Trial]) -> String {
        let widths = nulls.map { ($0.line.ratio.high - $0.line.ratio.low) / 2 }.filter(\.isFinite)
        return widths.isEmpty ? "-" : "±" + Format.short(Statistics.median(widths) * 100) + " %"
    }

    private static func plantedIn(_ request: PowerRequest) -> String {
        request.planted.map { "\($0.map(\.rawValue).joined(separator: ", ")) (the others unplanted)" }
            ?? "every backend"
    }

    private static let cpuTimeNote =
        "A duet judges CPU time, to which the spin adds one for one, wherever the task runs."
    private static let wallClockNote =
        "A delay spun in an asynchronous backend's tasks need not slow its throughput by as much, or at all: while the "
        + "worker spins, the producer fills the queue, and a worker that never runs dry never sleeps."

    static func markdown(
        _ trials: [PowerSession.Trial], request: PowerRequest, metric: Metric, pilot: [BackendID: Double],
        command: String
    ) -> String {
        let effects = shownEffects(trials, request: request)
        let backends = trials.map(\.line.cell.backend).reduce(into: [BackendID]()) {
            if !$0.contains($1) { $0.append($1) }
        }
        var table = TextTable(
            ["backend", "pilot"] + effects.map { $0 == 0 ? "A/A marked" : "+\(Format.short($0 * 100)) % called" }
                + (effects.contains(0) ? ["A/A ±"] : []))
        for backend in backends {
            let mine = trials.filter { $0.line.cell.backend == backend }
            let nulls = mine.filter { $0.effect == 0 }
            table.add(
                [backend.rawValue, pilot[backend].map { Format.short($0) + " ns" } ?? "-"]
                    + effects.map { effect in
                        let cell = mine.filter { $0.effect == effect }
                        return (effect == 0 ? rate(cell, [.faster, .slower]) : rate(cell, [.slower]))
                            + " " + pooledEffect(cell)
                    } + (effects.contains(0) ? [halfWidth(nulls)] : []))
        }
        let nulls = trials.filter { $0.effect == 0 }
        let wrong = trials.filter { $0.effect > 0 && $0.line.verdict == .faster }
        let pairs = trials.map { Double($0.line.pairs) }
        return """
            # bench power

            Generated by `\(command)`; do not edit.

            Each trial runs pairs of processes of this one build as `bench ab --pairing \(request.pairing.rawValue)` \
            does (\(request.pairing.summary); at least \
            \(ABAnalysis.pairsForABound), then until every cell is decided or \(Int(request.budgetSeconds)) s), on \
            \(request.workload) at quick scale. B spins, before every task of \(plantedIn(request)), the planted \
            fraction of that backend's pilot figure (\(metric.name), the median of \(PowerSession.pilotPairs) unplanted \
            pairs run the same way); A spins 0, so nothing else differs. Verdicts as \
            `bench ab` gives them: the 99 % confidence sequence, margin ±\(Format.short(request.minimumEffect * 100)) %. \
            "called" counts trials read slower; "A/A marked" counts cells of the build against itself read faster or \
            slower (false alarms): every cell of an effect-0 trial, and every unplanted backend's cell of the others; \
            "A/A ±" is the median half-width of their intervals at a trial's end, the smallest change a trial of that \
            length could call. In brackets, the effect the plant really had: the median of every pair's B/A over the \
            effect's trials, with its 99 % interval. \(request.pairing == .duet ? Self.cpuTimeNote : Self.wallClockNote)

            ```
            \(table.render())
            ```

            - A/A: \(nulls.filter { $0.line.verdict == .faster || $0.line.verdict == .slower }.count) of \(nulls.count) cell verdicts marked.
            - planted slowdowns called faster: \(wrong.count) of \(trials.count - nulls.count).
            - pairs per trial: median \(pairs.isEmpty ? "-" : Format.short(Statistics.median(pairs))), \
            most \(pairs.max().map { Format.short($0) } ?? "-"); trials: \(request.trials) per effect.

            `power.csv` holds every trial's ratio, interval and verdict.

            """
    }
}
