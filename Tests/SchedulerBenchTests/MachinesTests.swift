import Testing

@testable import SchedulerBench
@testable import SchedulerBenchTool

/// Runs of two machines: side by side as ratios to each run's own reference (`bench machines`), and `bench compare`
/// across machines listing ratios and exact counts only.
@Suite struct MachinesTests {
    static func run(machine: String, cores: Int, dispatch: Double, reference: Double) -> RunData {
        var metadata = Fixtures.metadata
        metadata.machine = machine
        metadata.cores = cores
        return Fixtures.run(
            [
                Fixtures.Cell(rounds: [
                    .dispatch: Array(repeating: dispatch, count: 9),
                    .rawDispatch: Array(repeating: reference, count: 9),
                ]),
                Fixtures.Cell(metric: .cpuNsPerTask, rounds: [.testScheduler: Array(repeating: 50, count: 9)]),
            ], metadata: metadata)
    }

    static let small = run(machine: "Small, 2 cores", cores: 2, dispatch: 300, reference: 200)
    static let large = run(machine: "Large, 16 cores", cores: 16, dispatch: 100, reference: 80)

    @Test func theMachinesPageShowsEachRunsRatiosUnderItsFingerprint() {
        let page = MachinesPage(runs: [Self.small, Self.large]).markdown(command: "bench machines a b")
        #expect(page.contains("| machine | Small, 2 cores | Large, 16 cores |"))
        #expect(page.contains("| cores | 2 | 16 |"))
        #expect(page.contains("| dispatch | raw-dispatch | 1.50x (1.50–1.50) | 1.25x (1.25–1.25) |"))
        // A median without a reference row does not travel between machines.
        #expect(!page.contains("| test |"))
    }

    @Test func aCellOneRunLacksReadsAsADash() {
        let partial = Fixtures.run([
            Fixtures.Cell(rounds: [
                .threadPool: Array(repeating: 150, count: 9), .rawDispatch: Array(repeating: 100, count: 9),
            ])
        ])
        let page = MachinesPage(runs: [Self.small, partial]).markdown(command: "bench machines a b")
        #expect(page.contains("| dispatch | raw-dispatch | 1.50x (1.50–1.50) | - |"))
        #expect(page.contains("| threadpool | raw-dispatch | - | 1.50x (1.50–1.50) |"))
    }

    @Test func compareAcrossMachinesListsRatiosOnlyAndSaysSo() {
        let comparison = Comparison(before: Self.small.summary, after: Self.large.summary, calibration: nil)
        #expect(comparison.lines.map(\.after.backend) == [.dispatch])
        #expect(comparison.mediansLeftOut == 2)  // raw-dispatch and test: medians only
        #expect(comparison.lines.allSatisfy { $0.verdict == .uncalibrated })
        #expect(comparison.basis.contains("only ratios to each run's own reference rows are compared"))
    }

    @Test func compareOnOneMachineKeepsEveryCell() {
        let again = Self.run(machine: "Small, 2 cores", cores: 2, dispatch: 310, reference: 200)
        let comparison = Comparison(before: Self.small.summary, after: again.summary, calibration: nil)
        #expect(comparison.lines.count == 3 && comparison.mediansLeftOut == 0)
    }
}
