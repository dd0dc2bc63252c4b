import Foundation
import SchedulerKit
import Testing

@testable import SchedulerConformance

/// M1, the random-program checker, judged by the bugs planted for it (``PlantedBug``): each found within the
/// default budget, shrunk to at most 10 operations, and replayed by the seed it prints; the same schedulers without
/// the defect pass. Serialized: each case runs real-time programs on threads of its own, and six cases at once on
/// two cores would crowd each other's 2 s settle.
@Suite(.serialized) struct ProgramCheckerTests {
    static func backend(_ bug: PlantedBug?) -> ConformanceBackend {
        let virtual = bug?.isVirtual ?? false
        return ConformanceBackend(name: "Planted: \(bug.map(\.rawValue) ?? "none")") {
            virtual ? PlantedVirtualScheduler(defect: bug) as any Scheduler : PlantedSerialScheduler(defect: bug)
        }
    }

    static let m1 = ConformanceRules.rule(.m1)!

    @Test(
        "M1 finds each planted bug, shrinks it to at most 10 operations, and its seed replays it",
        arguments: PlantedBug.allCases)
    func plantedBug(_ bug: PlantedBug) throws {
        var found = 0
        var seedsReplayed = 0
        var racesHit = 0
        for _ in 0..<controlRuns {
            let outcome = Self.backend(bug).evaluate(Self.m1).outcome
            guard case .failed(let detail) = outcome else {
                Issue.record("\(bug): M1 did not fail (\(outcome))")
                continue
            }
            found += 1
            let shrunk = Self.number(after: "program: ", before: " operations", in: detail) ?? Int.max
            #expect(shrunk <= 10, "\(bug): shrunk only to \(shrunk) operations: \(detail)")
            let session = Self.backend(bug).session(.conformance)
            defer { session.close() }
            let replay = ProgramRules.search(for: Self.backend(bug)) { session.makeScheduler() }
            let replays = bug.isVirtual ? 1 : ProgramRules.realTimeReplays
            // As SCHEDULERKIT_PROGRAM and SCHEDULERKIT_PROGRAM_SEED replay: once on virtual time, up to 20 times on
            // real time. The shortest program must replay; the one drawn from the seed may need its race again.
            let code = try #require(Self.text(after: "SCHEDULERKIT_PROGRAM=", in: detail), "\(detail)")
            let shortest = try #require(SchedulerProgram(code: code), "\(code)")
            #expect(shortest.steps.count == shrunk)
            // A program that failed again in its replays must replay; one that needed a rare race (the verdict
            // says so) may need it again.
            let racy = detail.contains("did not fail again")
            // On real time the shortest program of a race replays by chance: up to three batches of replays (one
            // batch missed it once in a fresh-machine run, for cancelTrueForTakenBatch).
            let batches = bug.isVirtual ? 1 : 3
            let replayed = (0..<batches).contains { _ in
                (try? replay.search(Array(repeating: shortest, count: replays))) == nil
            }
            #expect(racy || replayed, "\(bug): SCHEDULERKIT_PROGRAM=\(code) did not replay: \(detail)")
            if racy { racesHit += 1 }
            let seedText = try #require(Self.text(after: "SCHEDULERKIT_PROGRAM_SEED=", in: detail), "\(detail)")
            let seed = try #require(UInt64(seedText.dropFirst(2), radix: 16))
            if (try? replay.search(seeds: Array(repeating: seed, count: replays))) == nil {
                seedsReplayed += 1
            }
        }
        if controlRuns > 1 {
            print(
                "\(bug): M1 failed \(found) of \(controlRuns); the seed replayed \(seedsReplayed) of \(found); "
                    + "\(racesHit) found by a race that did not come again in 5 replays")
        }
        if bug.isVirtual { #expect(seedsReplayed == found, "on virtual time a seed replays exactly") }
    }

    @Test("M1 passes the planted schedulers without their defect", arguments: [false, true])
    func plantedWithoutDefect(virtual: Bool) {
        let backend = ConformanceBackend(name: "Planted, correct") {
            virtual ? PlantedVirtualScheduler(defect: nil) as any Scheduler : PlantedSerialScheduler(defect: nil)
        }
        for _ in 0..<controlRuns {
            let outcome = backend.evaluate(Self.m1).outcome
            #expect(!outcome.isFailure && outcome != RuleOutcome.notApplicable, "\(outcome)")
        }
    }

    /// A task whose cancel said false, on a scheduler excused C2, is not waited for; when it runs after all, once the
    /// program settled, what it schedules was not waited for either (seen on NIO's event loop under load: "t2 never
    /// ran, and nothing cancelled it", for `SCHEDULERKIT_PROGRAM=s1,c1,n2:1@3`).
    @Test("M1 does not judge work scheduled by a late task after the program settled")
    func workScheduledAfterSettling() throws {
        let backend = ConformanceBackend(
            name: "late plain work", expectedFailures: [.c2: "its plain work cannot be cancelled"]
        ) { LatePlainWorkScheduler() }
        let session = backend.session(.conformance)
        defer { session.close() }
        let search = ProgramRules.search(for: backend) { session.makeScheduler() }
        let program = try #require(SchedulerProgram(code: "s1,c1,n2:1@3"))
        for _ in 0..<20 {
            #expect(search.violations(of: program).isEmpty, "\(search.violations(of: program))")
        }
    }

    @Test("A program's code reads back as the same program; a code that is not one is refused")
    func programCodes() {
        let shape = ProgramShape(traits: [.serial, .asynchronous, .timed, .repeating])
        for seed in UInt64(1)...200 {
            let program = SchedulerProgram.random(seed: seed, shape: shape)
            #expect(SchedulerProgram(code: program.code)?.steps == program.steps, "\(program.code)")
        }
        for bad in ["", "s", "x1", "s1,c2", "r1@0/0x1", "n2:1", "s1,n2:1@", "n2<1", "p0", "a1@", "s1hh"] {
            #expect(SchedulerProgram(code: bad) == nil, "\(bad)")
        }
    }

    @Test("The same seed and shape make the same program")
    func programsReplay() {
        let shape = ProgramShape(traits: TestScheduler.traits)
        for seed in [UInt64(1), 0xDEAD_BEEF, .max] {
            let program = SchedulerProgram.random(seed: seed, shape: shape)
            #expect(program == SchedulerProgram.random(seed: seed, shape: shape))
            #expect((3...shape.maxSteps).contains(program.steps.count))
            #expect(program.normalized() == program, "a drawn program needs no repair")
        }
    }

    static func text(after marker: String, in detail: String) -> String? {
        guard let range = detail.range(of: marker) else { return nil }
        return String(detail[range.upperBound...].prefix { !$0.isWhitespace && $0 != ")" && $0 != ";" })
    }

    static func number(after marker: String, before end: String, in detail: String) -> Int? {
        guard let endRange = detail.range(of: end),
            let start = detail[..<endRange.lowerBound].range(of: marker, options: .backwards)
        else { return nil }
        return Int(detail[start.upperBound..<endRange.lowerBound])
    }
}
