import Foundation
import Testing

@testable import SchedulerBench
@testable import SchedulerBenchTool

/// `bench ab --fail-on`: which verdicts trip the gate.
@Suite struct ABGateTests {
    /// 20 pairs whose B is `shift` times A, with little noise, judged at a 2 % margin.
    static func analysis(shift: Double, processNoise: Double = 0.005) -> ABAnalysis {
        ABAnalysis(
            pairs: ABAnalysisTests.pairs(seed: 7, count: 20, shift: shift, processNoise: processNoise),
            minimumEffect: 0.02, pairing: .sequential)
    }

    @Test func aSlowerCellTripsTheGateAndAFasterOrEqualOneDoesNot() throws {
        let slower = Self.analysis(shift: 1.2)
        try #require(slower.lines.map(\.verdict) == [.slower])
        let trips = ABGate.slower.trips(slower, instructions: nil)
        #expect(trips.count == 1 && trips[0].contains("slower, B/A 1.2"), "\(trips)")
        let faster = Self.analysis(shift: 0.8)
        try #require(faster.lines.map(\.verdict) == [.faster])
        #expect(ABGate.slower.trips(faster, instructions: nil).isEmpty)
        let same = Self.analysis(shift: 1)
        try #require(same.lines.map(\.verdict) == [.same])
        for gate in ABGate.allCases { #expect(gate.trips(same, instructions: nil).isEmpty, "\(gate)") }
    }

    @Test func onlyTheStrictGateTripsOnAnUndecidedCell() throws {
        // Too noisy to tell a 2 % change in 20 pairs either way.
        let undecided = Self.analysis(shift: 1.02, processNoise: 0.2)
        try #require(undecided.lines.map(\.verdict) == [.undecided])
        #expect(ABGate.slower.trips(undecided, instructions: nil).isEmpty)
        #expect(ABGate.slowerOrUndecided.trips(undecided, instructions: nil).count == 1)
    }

    @Test func anUnknownGateIsRefusedBeforeAnyWork() throws {
        #expect(throws: BenchError.self) { try Selection.gate("faster") }
        #expect(try Selection.gate(nil) == nil)
        #expect(try Selection.gate("slower") == .slower)
    }
}
