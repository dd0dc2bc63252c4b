import Foundation
import SchedulerConformance
import SchedulerKit
import TestSupport
import Testing
import ToolSupport

@testable import SchedulerBench
@testable import SchedulerBenchTool

/// `bench compare` on stored runs, against noise bounds calibrated from runs of one build.
@Suite struct ComparisonTests {
    /// A run with W1 on threadpool and its reference: `shift` scales threadpool, `machine` both (what the host did).
    static func run(seed: UInt64, shift: Double = 1, roundNoise: Double = 0.04, runNoise: Double = 0.03) -> RunData {
        var generator = SplitMix64(seed: seed)
        let machine = 1 + 0.2 * Double(seed % 3)  // whole runs on faster or slower hosts
        let level = shift * Foundation.exp(runNoise * Fixtures.gaussian(&generator))
        let reference = Fixtures.noisy(280 * machine, spread: roundNoise, count: 9, &generator)
        let pool = reference.map { $0 * 0.55 * level * Foundation.exp(roundNoise * Fixtures.gaussian(&generator)) }
        return Fixtures.run([Fixtures.Cell(rounds: [.threadPool: pool, .rawDispatch: reference])])
    }

    static func calibration(runs: Int = 5, seed: UInt64 = 1_000) throws -> Calibration {
        try Calibration(runs: (0..<runs).map { run(seed: seed + UInt64($0)) })
    }

    @Test func figuresAreNormalisedByTheirRunsReference() {
        let row = Self.run(seed: 2).summary.first { $0.backend == .threadPool && $0.metric == .nsPerTask }!
        let figure = ComparedFigure(row)
        #expect(figure.statistic == .ratioToReference)
        #expect(abs(figure.value - 0.55) < 0.1)  // not 280 × 0.55 × 1.4: the host's speed cancels
        #expect(ComparedFigure(Self.run(seed: 2).summary.first { $0.backend == .rawDispatch }!).statistic == .median)
    }

    /// Two runs of one build: at most 1 % of comparisons marked, over many calibrations and many pairs of runs.
    @Test func runsOfOneBuildAreAlmostNeverMarked() throws {
        var marked = 0
        var compared = 0
        for calibrationSeed in 0..<20 {
            let calibration = try Self.calibration(seed: 10_000 + 10 * UInt64(calibrationSeed))
            for seed in 0..<50 {
                let first = UInt64(100 * calibrationSeed + 2 * seed)
                let comparison = Comparison(
                    before: Self.run(seed: first).summary, after: Self.run(seed: first + 1).summary,
                    calibration: calibration)
                compared += comparison.lines.count
                marked += comparison.count(.better) + comparison.count(.worse)
            }
        }
        #expect(Double(marked) <= 0.01 * Double(compared), "\(marked) of \(compared) A/A cells marked")
    }

    /// A shift of twice the calibrated noise bound is marked, in the right direction, in nearly every seed.
    @Test func aShiftBeyondTheNoiseBoundIsMarked() throws {
        let calibration = try Self.calibration()
        let key = Self.run(seed: 0).summary.first { $0.backend == .threadPool && $0.metric == .nsPerTask }!.key
        let bound = try #require(calibration.cells[key]).noiseBound
        var found = 0
        for seed in 0..<200 {
            let comparison = Comparison(
                before: Self.run(seed: UInt64(seed)).summary,
                after: Self.run(seed: UInt64(seed + 500), shift: (1 + bound) * (1 + bound)).summary,
                calibration: calibration)
            let line = comparison.lines.first { $0.after.key == key }!
            #expect(line.verdict != .better)
            if line.verdict == .worse { found += 1 }
        }
        #expect(found >= 190, "a shift of twice the noise bound was marked in \(found) of 200 seeds")
    }

    /// Six lanes of one cell, each compared by its median (none has its reference in the cell): `machine` scales all of
    /// them, as the host does to a whole sweep; `shift` scales raw-dispatch alone, as a change to one backend does.
    static let sweepLanes: [BackendID] = [
        .rawDispatch, .rawDispatchGlobal, .rawOperationQueue, .rawNIOExecute, .directCall, .spinHandOff,
    ]

    static func sweepRun(seed: UInt64, machine: Double = 1, shift: Double = 1) -> RunData {
        var generator = SplitMix64(seed: seed)
        var rounds: [BackendID: [Double]] = [:]
        for (index, lane) in sweepLanes.enumerated() {
            let level =
                machine * (lane == .rawDispatch ? shift : 1) * Foundation.exp(0.03 * Fixtures.gaussian(&generator))
            rounds[lane] = Fixtures.noisy(100 * Double(index + 1) * level, spread: 0.04, count: 9, &generator)
        }
        return Fixtures.run([Fixtures.Cell(rounds: rounds)])
    }

    static func sweepCalibration(seed: UInt64, machines: [Double] = [1, 1, 1, 1, 1]) throws -> Calibration {
        try Calibration(
            runs: machines.enumerated().map { sweepRun(seed: seed + UInt64($0.offset), machine: $0.element) })
    }

    /// The whole sweep 1.8x slower in run B (the W2 case between the reference runs of 285dc94 and 39601ec): no
    /// backend is marked, since none of them moved apart from the others, and the sweep's own line is.
    @Test func aSweepThatMovesAsAWholeIsMarkedOnTheSweepNotOnEachBackend() throws {
        let calibration = try Self.sweepCalibration(seed: 2_000)
        let comparison = Comparison(
            before: Self.sweepRun(seed: 1).summary, after: Self.sweepRun(seed: 2, machine: 1.8).summary,
            calibration: calibration)
        #expect(comparison.lines.count == Self.sweepLanes.count)
        for line in comparison.lines {
            #expect(line.ratio > 1.5 && line.ratio > 1 + line.noiseBound!)  // beyond each backend's own noise bound
            #expect(line.verdict == .withinNoise, "\(line.after.backend) marked \(line.verdict)")
        }
        #expect(comparison.sweeps.count == 1)
        #expect(comparison.sweeps.first?.verdict == .worse)
        #expect(comparison.render().contains("1 moved as a whole"))
    }

    /// One backend 2 noise bounds slower in a sweep that stays put: marked, in nearly every seed, and the others are not
    /// (over several calibrations, as the noise bounds hold: one calibration of 5 runs can be lucky).
    @Test func oneBackendsChangeInALevelledSweepIsStillMarked() throws {
        let key = Self.sweepRun(seed: 0).summary.first { $0.backend == .rawDispatch }!.key
        var found = 0
        var othersMarked = 0
        for calibrationSeed in 0..<10 {
            let calibration = try Self.sweepCalibration(seed: 3_000 + 10 * UInt64(calibrationSeed))
            let bound = max(
                try #require(calibration.cells[key]).noiseBound,
                try #require(calibration.levelledCells[key]).noiseBound)
            for seed in 0..<20 {
                let first = UInt64(10_000 + 100 * calibrationSeed + 2 * seed)
                let comparison = Comparison(
                    before: Self.sweepRun(seed: first).summary,
                    after: Self.sweepRun(seed: first + 1, shift: (1 + bound) * (1 + bound)).summary,
                    calibration: calibration)
                for line in comparison.lines where line.verdict != .withinNoise {
                    if line.after.key == key, line.verdict == .worse { found += 1 } else { othersMarked += 1 }
                }
            }
        }
        #expect(found >= 190, "a shift of twice the noise bound was marked in \(found) of 200 seeds")
        #expect(othersMarked <= 10, "\(othersMarked) of 1 000 unchanged backends marked")
    }

    /// Runs of one build, on a host whose speed moved between calibration runs: backends and sweeps are almost never
    /// marked, and levelling takes the host's moves out of each backend's noise bound (not out of the sweep's).
    @Test func sweepsOfOneBuildAreAlmostNeverMarked() throws {
        var marked = 0
        var compared = 0
        var sweepsMarked = 0
        for calibrationSeed in 0..<10 {
            let calibration = try Self.sweepCalibration(
                seed: 40_000 + 10 * UInt64(calibrationSeed), machines: [1, 1.3, 0.8, 1.15, 0.9])
            let key = Self.sweepRun(seed: 0).summary.first { $0.backend == .spinHandOff }!.key
            #expect(calibration.levelledCells[key]!.noiseBound < calibration.cells[key]!.noiseBound / 2)
            for seed in 0..<30 {
                let first = UInt64(50_000 + 100 * calibrationSeed + 2 * seed)
                let comparison = Comparison(
                    before: Self.sweepRun(seed: first).summary, after: Self.sweepRun(seed: first + 1).summary,
                    calibration: calibration)
                compared += comparison.lines.count
                marked += comparison.count(.better) + comparison.count(.worse)
                sweepsMarked += comparison.sweeps.filter { $0.verdict != .withinNoise }.count
            }
        }
        #expect(Double(marked) <= 0.01 * Double(compared), "\(marked) of \(compared) A/A cells marked")
        #expect(sweepsMarked <= 6, "\(sweepsMarked) of 300 A/A sweeps marked")
    }

    @Test func withoutACalibrationNothingMeasuredIsMarkedAndTheTextSaysWhy() {
        let comparison = Comparison(
            before: Self.run(seed: 1).summary, after: Self.run(seed: 2, shift: 3).summary,
            calibration: nil)
        #expect(comparison.lines.allSatisfy { $0.verdict == .uncalibrated })
        #expect(comparison.render().contains("No calibration for this machine"))
    }

    @Test func runsOfDifferentMachinesAreNotJudged() throws {
        var other = Fixtures.metadata
        other.machine = "Another CPU, 64 cores"
        let after = Self.run(seed: 2).summary.map { row -> SummaryRow in
            var row = row
            row.metadata = other
            return row
        }
        let comparison = Comparison(
            before: Self.run(seed: 1).summary, after: after, calibration: try Self.calibration())
        #expect(comparison.incomparable?.contains("different machines") == true)
        #expect(comparison.lines.allSatisfy { $0.verdict == .uncalibrated })
    }

    @Test func exactCountsAreComparedAsCounts() {
        let before = [Fixtures.row(.threadPool, median: 1, count: 1, workload: .allocations, metric: .allocsPerTask)]
        let same = [Fixtures.row(.threadPool, median: 1.004, count: 1, workload: .allocations, metric: .allocsPerTask)]
        let more = [Fixtures.row(.threadPool, median: 2, count: 1, workload: .allocations, metric: .allocsPerTask)]
        #expect(Comparison(before: before, after: same, calibration: nil).lines[0].verdict == .withinNoise)
        #expect(Comparison(before: before, after: more, calibration: nil).lines[0].verdict == .worse)
    }

    /// A count the calibration saw change between runs of one build (NIO's thread pool awaited from the global executor
    /// counted 8.8 and 9.8 allocations per task in two reference runs) is judged against its noise bound, like a measured
    /// figure; a count that never changed is still compared as a count.
    @Test func aCountThatChangedInTheCalibrationIsJudgedAgainstItsNoiseBound() throws {
        func run(pool: Double, dispatch: Double) -> RunData {
            let rounds: [BackendID: [Double]] = [
                .nioThreadPool: [0.98, 1, 1.02, 0.99, 1.01, 1, 0.97].map { $0 * pool },
                .dispatch: Array(repeating: dispatch, count: 7),
            ]
            return Fixtures.run([
                Fixtures.Cell(workload: .taskLifecycle, metric: .allocsPerTask, rounds: rounds)
            ])
        }
        let calibration = try Calibration(runs: [8.8, 9.8, 8.7, 9.6].map { run(pool: $0, dispatch: 5) })
        let comparison = Comparison(
            before: run(pool: 8.8, dispatch: 5).summary, after: run(pool: 9.8, dispatch: 6).summary,
            calibration: calibration)
        let pool = try #require(comparison.lines.first { $0.after.backend == .nioThreadPool })
        let dispatch = try #require(comparison.lines.first { $0.after.backend == .dispatch })
        #expect(calibration.cells[pool.after.key]!.varies(as: .allocsPerTask))
        #expect(pool.verdict == .withinNoise && pool.noiseBound != nil)
        #expect(dispatch.verdict == .worse && dispatch.noiseBound == nil)
        // Without the calibration's word, a count is a count: 9.8 against 8.8 is one allocation more.
        #expect(
            Comparison(
                before: run(pool: 8.8, dispatch: 5).summary, after: run(pool: 9.8, dispatch: 5).summary,
                calibration: nil
            ).lines.first { $0.after.backend == .nioThreadPool }?.verdict == .worse)
    }

    @Test func cellsInOneRunOnlyAreListedNotCompared() {
        let comparison = Comparison(
            before: [Fixtures.row(.dispatch, median: 1)], after: [Fixtures.row(.threadPool, median: 1)],
            calibration: nil)
        #expect(comparison.lines.isEmpty && comparison.onlyBefore.count == 1 && comparison.onlyAfter.count == 1)
    }
}

@Suite struct CalibrationTests {
    @Test func aCalibrationSurvivesItsFileAndHoldsOnlyForItsKindOfRun() throws {
        let calibration = try ComparisonTests.calibration()
        #expect(!calibration.cells.isEmpty)
        let folder = try temporaryDirectory()
        let file = Calibration.file(for: Fixtures.metadata, root: folder.path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try AtomicFile.write(calibration.csv, to: file)
        let read = try #require(try Calibration.load(for: Fixtures.metadata, root: folder.path))
        #expect(Set(read.cells.keys) == Set(calibration.cells.keys))
        for (key, entry) in calibration.cells {
            #expect(abs(read.cells[key]!.noiseBound - entry.noiseBound) < 0.001)
        }
        #expect(read.runs == 5 && read.machine == Fixtures.metadata.machine)
        var pinned = Fixtures.metadata
        pinned.pinned = true
        #expect(try Calibration.load(for: pinned, root: folder.path) == nil)  // another CPU set, another file
    }

    /// Hand-offs that all ran 2x slower in two of five calibration runs (the W1 lanes in the calibration of
    /// `ac98b54`) lend none of that to lanes that run work on the caller's thread: a direct call that moved by under
    /// 1 % keeps a noise bound of a few %. Its sweep is still the whole cell, so its levelled figure carries the hand-offs'
    /// move; a comparison marks it only beyond both noise bounds, and a machine that slows every lane alike marks none.
    @Test func eachKindOfBackendIsModeratedAmongItsOwn() throws {
        let handOffs: [BackendID] = [
            .rawDispatch, .rawDispatchGlobal, .rawOperationQueue, .rawNIOExecute, .spinHandOff,
        ]
        let runs = [2.0, 1, 2, 1, 1].enumerated().map { index, state in
            var generator = SplitMix64(seed: 60_000 + UInt64(index))
            var rounds: [BackendID: [Double]] = [:]
            for (lane, size) in zip(handOffs, [300.0, 250, 2_900, 220, 95]) {
                rounds[lane] = Fixtures.noisy(size * state, spread: 0.04, count: 9, &generator)
            }
            rounds[.directCall] = Fixtures.noisy(
                16.7 * (1 + 0.005 * Double(index % 2)), spread: 0.01, count: 9, &generator)
            return Fixtures.run([Fixtures.Cell(rounds: rounds)])
        }
        let calibration = try Calibration(runs: runs)
        let key = { (lane: BackendID) in runs[0].summary.first { $0.backend == lane && $0.metric == .nsPerTask }!.key }
        let direct = try #require(calibration.cells[key(.directCall)])
        #expect(direct.noiseBound < 0.1, "a direct call's noise bound of \(direct.noiseBound)")
        #expect(try #require(calibration.levelledCells[key(.directCall)]).noiseBound > 10 * direct.noiseBound)
        for lane in handOffs {
            #expect(try #require(calibration.cells[key(lane)]).noiseBound > 1, "\(lane) lost its runs' 2x move")
        }
        #expect(Backend.execution(of: .directCall) == .inline && Backend.execution(of: .immediate) == .inline)
        #expect(Backend.execution(of: .testScheduler) == .virtualTime)
        #expect(Backend.execution(of: .swiftClocksTestClock) == .virtualTime)
        #expect(
            [.spinHandOff, .defaultExecutor, .continuousClock, .dispatch].allSatisfy {
                Backend.execution(of: $0) == .handOff
            })
    }

    /// A cell's spread is moderated towards its family's: one lucky cell does not get a noise bound of zero.
    @Test func aCellThatHappenedNotToMoveStillGetsANoiseBound() throws {
        var runs: [RunData] = []
        for index in 0..<3 {
            let steady: [Double] = Array(repeating: 100, count: 9)
            let moving = [1.0, 1.1, 0.9][index]
            runs.append(
                Fixtures.run([
                    Fixtures.Cell(parameters: Parameters([.tasks: 1]), rounds: [.directCall: steady]),
                    Fixtures.Cell(
                        parameters: Parameters([.tasks: 2]), rounds: [.directCall: steady.map { $0 * moving }]),
                ]))
        }
        let calibration = try Calibration(runs: runs)
        let bounds = calibration.cells.values.map(\.noiseBound).sorted()
        #expect(bounds.count == 2 && bounds[0] > 0.01)
    }

    @Test func fewerThanTwoRunsAreRefused() {
        #expect(throws: BenchError.self) { try Calibration(runs: [ComparisonTests.run(seed: 1)]) }
    }

    @Test func studentsQuantilesMatchTheTable() {
        #expect(StudentT.quantile995(4) == 4.604)
        #expect(abs(StudentT.quantile995(1_000_000) - 2.576) < 0.001)
        #expect(StudentT.quantile975(11) > 2.179 && StudentT.quantile975(11) < 2.228)
    }
}
