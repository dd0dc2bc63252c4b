import SchedulerConformance
import Testing

@testable import SchedulerBench
@testable import SchedulerBenchTool

/// `bench power`'s page: a backend left unplanted beside a planted one is a comparison of the build with itself, so
/// its verdicts count with the A/A trials'.
@Suite struct PowerReportTests {
    static func trial(
        _ backend: BackendID, effect: Double, trialEffect: Double, _ verdict: ABAnalysis.Verdict
    ) -> PowerSession.Trial {
        let ratio = 1 + effect
        let line = ABAnalysis.Line(
            cell: Fixtures.row(backend, median: 100, metric: .cpuNsPerTask).key, baseline: 100,
            candidate: 100 * ratio, ratio: Estimate(value: ratio, low: ratio - 0.01, high: ratio + 0.01), pairs: 50,
            verdict: verdict, smallestCallable: 0.02)
        return PowerSession.Trial(
            effect: effect, trialEffect: trialEffect, index: 1, line: line, ratios: [ratio], seconds: 60)
    }

    @Test func anUnplantedBackendCountsAsAnAATrial() {
        var request = PowerRequest()
        request.effects = [0, 0.03]
        request.planted = [.threadPool]
        let trials = [
            Self.trial(.threadPool, effect: 0.03, trialEffect: 0.03, .slower),
            Self.trial(.immediate, effect: 0, trialEffect: 0.03, .faster),
        ]
        let page = PowerReport.markdown(
            trials, request: request, metric: .cpuNsPerTask, pilot: [:], command: "bench power")
        #expect(page.contains("A/A: 1 of 1 cell verdicts marked"))
        request.effects = [0.03]  // no A/A trial asked for: the unplanted backend's column is shown all the same
        #expect(
            PowerReport.markdown(trials, request: request, metric: .cpuNsPerTask, pilot: [:], command: "")
                .contains("A/A marked"))
        #expect(page.contains("threadpool (the others unplanted)"))
        #expect(page.contains("planted slowdowns called faster: 0 of 1"))
        #expect(PowerReport.csv(trials, pairing: .sequential).contains("0,0.030,1,immediate"))
        #expect(PowerReport.csv(trials, pairing: .sequential).hasPrefix("effect,"))
        #expect(
            PowerReport.csv(trials, pairing: .sequential).split(separator: "\n").dropFirst()
                .allSatisfy { $0.hasSuffix(",sequential") }, "every row names its pairing")
    }
}
