import Testing

@testable import SchedulerBench
@testable import SchedulerBenchTool

/// What a duet judges: two processes sharing one CPU at once see the same host, but their wall-clock figures measure
/// how the kernel split the CPU between them, so only CPU time (and exact counts) are compared.
@Suite struct PairingTests {
    @Test func aDuetJudgesCPUTimeAndCountsOnly() {
        #expect(Pairing.duet.judges(.cpuNsPerTask))
        #expect(Pairing.duet.judges(.cpuNsPerRoundTrip))
        #expect(Pairing.duet.judges(.allocsPerCall))
        #expect(!Pairing.duet.judges(.nsPerTask))
        #expect(!Pairing.duet.judges(.p99))
        #expect(Metric.all.allSatisfy(Pairing.sequential.judges))
    }

    /// The wall-clock cell of a duet's pairs is left out of the verdicts; its CPU-time cell is judged.
    @Test func aDuetLeavesWallClockCellsOut() {
        let pairs = (0..<20).map { index in
            let wall = 100 + Double(index)
            return (
                baseline: [
                    Fixtures.row(.threadPool, median: wall),
                    Fixtures.row(.threadPool, median: 50, metric: .cpuNsPerTask),
                ],
                candidate: [
                    Fixtures.row(.threadPool, median: wall * 2),
                    Fixtures.row(.threadPool, median: 50, metric: .cpuNsPerTask),
                ]
            )
        }
        let duet = ABAnalysis(pairs: pairs, minimumEffect: 0.02, pairing: .duet)
        #expect(duet.lines.map(\.cell.metric) == [.cpuNsPerTask])
        #expect(duet.lines.first?.verdict == .same)
        let sequential = ABAnalysis(pairs: pairs, minimumEffect: 0.02, pairing: .sequential)
        #expect(sequential.lines.map(\.cell.metric) == [.nsPerTask, .cpuNsPerTask])
        #expect(sequential.lines.first?.verdict == .slower)
    }

    /// Every workload `bench ab` compares by default reports CPU time, so a duet judges each of them.
    @Test func theDefaultWorkloadsReportCPUTime() throws {
        let workloads = try RunRequest(workloads: ABRequest.defaultWorkloads).resolvedWorkloads()
        #expect(workloads.count == ABRequest.defaultWorkloads.count)
        let withoutCPUTime = workloads.filter { !$0.metrics.contains { $0.isCPUTime } }.map(\.id)
        #expect(withoutCPUTime.isEmpty)
    }
}
