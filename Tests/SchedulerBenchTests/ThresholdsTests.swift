import Foundation
import TestSupport
import Testing
import ToolSupport

@testable import SchedulerBench
@testable import SchedulerBenchTool

@Suite struct ThresholdsTests {
    static let schedule = CostCell(backend: .threadPool, workload: nil, metric: .instructionsToSchedule)
    static let allocations = CostCell(
        backend: .threadPool, workload: .allocations,
        parameters: Parameters([.queued: 100_000]), metric: .allocsPerTask)

    @Test func aPlantedAllocationPerTaskIsARegression() {
        let limits = Thresholds(limits: [Self.allocations: 1, Self.schedule: 321])
        let lines = limits.check([Self.allocations: 2.0001, Self.schedule: 322])
        #expect(lines.first { $0.cell == Self.allocations }?.verdict == .regressed)
        #expect(lines.first { $0.cell == Self.schedule }?.verdict == .within)
    }

    @Test func instructionsMayMoveByTwoPercent() {
        let limits = Thresholds(limits: [Self.schedule: 300])
        #expect(limits.check([Self.schedule: 306]).first?.verdict == .within)
        #expect(limits.check([Self.schedule: 307]).first?.verdict == .regressed)
        #expect(limits.check([Self.schedule: 290]).first?.verdict == .improved)
        #expect(Thresholds(limits: [:]).check([Self.schedule: 1]).first?.verdict == .unlimited)
    }

    @Test func theFileRoundTrips() throws {
        let folder = try temporaryDirectory()
        let file = folder.appendingPathComponent("swift-test.csv")
        let measured = Thresholds.measured([Self.schedule: 320.2, Self.allocations: 1.0004])
        #expect(measured.limits[Self.schedule] == 321 && measured.limits[Self.allocations] == 1)
        try AtomicFile.write(measured.csv, to: file)
        #expect(try Thresholds(contentsOf: file.path).limits == measured.limits)
        #expect(Thresholds.file(in: "x").lastPathComponent.hasPrefix("swift-6."))
    }
}

@Suite struct InstructionCountTests {
    /// Dumps of a linear backend: warm-up round (schedule, run, settle), the round of N, the round of 2N.
    @Test func countsAreTheDifferenceOfTwoRoundsPerTask() throws {
        let run = try InstructionCount.probeRun(
            [40_000_000, 1_600_000, 500, 600_000, 800_000, 400, 1_200_000, 1_600_100, 300],
            backend: .threadPool, tasks: 1_000)
        #expect(run.schedule == 600 && run.run == 800.1 && run.isLinear)
    }

    /// A round of N that costs more than one of 2N (Dispatch's global pool grew meanwhile) is not per task.
    @Test func aRoundWhoseFixedPartIsLargeIsNotLinear() throws {
        let run = try InstructionCount.probeRun(
            [40_000_000, 9_200_000, 500, 6_700_000, 11_000_000, 400, 13_400_000, 9_400_000, 300],
            backend: .rawDispatchGlobal, tasks: 10_000)
        #expect(!run.isLinear)
        #expect(InstructionCount.agreeing([run, run]) == nil)
    }

    @Test func twoLinearRunsThatAgreeAreEnough() {
        let a = InstructionCount.ProbeRun(schedule: 320, run: 397, isLinear: true)
        let b = InstructionCount.ProbeRun(schedule: 321, run: 396, isLinear: true)
        let c = InstructionCount.ProbeRun(schedule: 340, run: 397, isLinear: true)
        #expect(InstructionCount.agreeing([a, c]) == nil)
        #expect(InstructionCount.agreeing([a, c, b]) == [a, b])
    }

    /// Estimated cycles: instructions plus 10 per L1 miss and 100 per last-level miss; nothing without the cache
    /// simulation's events.
    @Test func estimatedCyclesPriceEachMiss() {
        let events: [String: Int64] = [
            "Ir": 1_000, "Dr": 400, "Dw": 300, "I1mr": 1, "D1mr": 2, "D1mw": 3, "ILmr": 1, "DLmr": 0, "DLmw": 1,
        ]
        let expected: Int64 = 1_000 + 10 * 6 + 100 * 2
        #expect(EstimatedCycles.estimate(events) == expected)
        #expect(EstimatedCycles.estimate(["Ir": 1_000]) == nil)
        #expect(EstimatedCycles.agreed([100, 100.5]) == 100.25)
        #expect(EstimatedCycles.agreed([100, 105]) == nil)
        #expect(EstimatedCycles.agreed([100, nil]) == nil)
    }

    /// The estimate per task is the same difference of two rounds as the instructions'.
    @Test func estimatedCyclesPerTaskAreTheDifferenceOfTwoRounds() throws {
        let instructions: [Int64] = [40_000_000, 1_600_000, 500, 600_000, 800_000, 400, 1_200_000, 1_600_100, 300]
        let run = try InstructionCount.probeRun(
            instructions, cycles: instructions.map { $0 * 2 }, backend: .immediate, tasks: 1_000)
        #expect(run.scheduleCycles == 1_200 && run.runCycles == 1_600.2)
        let without = try InstructionCount.probeRun(instructions, backend: .immediate, tasks: 1_000)
        #expect(without.scheduleCycles == nil && without.runCycles == nil)
    }

    @Test func theBackendsThatCannotBeCountedSayWhy() {
        #expect(!InstructionProbe.countable(Catalog.backend(.spinHandOff)!))
        #expect(!InstructionProbe.countable(Catalog.backend(.defaultExecutor)!))
        #expect(InstructionProbe.countable(Catalog.backend(.threadPool)!))
    }
}
