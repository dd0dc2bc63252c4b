import Testing

@testable import SchedulerBench
@testable import SchedulerBenchTool

/// W2's and W3's counts scale with the machine, read as what they stand for, and the scaling chart draws them.
@Suite struct CoreRelativeTests {
    @Test func onTwoCoresTheCountsAreTheOnesTheWorkloadsAlwaysHad() {
        #expect(CoreRelative.producers.counts(cores: 2) == [1, 2, 4, 8])
        #expect(CoreRelative.fanOutSchedulers.counts(cores: 2) == [1, 16, 1_000])
    }

    @Test func onMoreCoresTheyGrowWithTheMachine() {
        #expect(CoreRelative.producers.counts(cores: 16) == [1, 16, 32, 64])
        #expect(CoreRelative.producers.counts(cores: 1) == [1, 2, 4])  // 1 and "the cores" are one count
        #expect(CoreRelative.fanOutSchedulers.counts(cores: 64) == [1, 512, 1_000])
    }

    @Test func aCountReadsAsWhatItStandsFor() {
        #expect(CoreRelative.producers.label(8, cores: 2) == "8 (4×cores)")
        #expect(CoreRelative.producers.label(2, cores: 2) == "2 (cores)")
        #expect(CoreRelative.producers.label(1, cores: 2) == "1")
        #expect(CoreRelative.fanOutSchedulers.label(1_000, cores: 2) == "1000")
    }

    @Test func theScalingChartDrawsEachBackendAgainstTheCounts() {
        let run = Fixtures.run(
            [1, 2, 4, 8].map { producers in
                Fixtures.Cell(
                    workload: .producers, parameters: Parameters([.producers: producers, .tasks: 40_000]),
                    rounds: [.threadPool: Array(repeating: Double(100 * producers), count: 9)])
            })
        let points = Charts.points(RunView(run: run, allocator: .jemalloc)).filter { $0.chart == .scaling }
        #expect(points.map(\.x) == ["1", "2 (cores)", "4 (2×cores)", "8 (4×cores)"])
        #expect(points.map(\.value) == [100, 200, 400, 800])
        #expect(Set(points.map(\.series)) == ["threadpool"])
    }
}
