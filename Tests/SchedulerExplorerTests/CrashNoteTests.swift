import Foundation
import SchedulerExplorer
import SchedulerKit
import Testing

/// A bug that traps kills the process; the schedule's seed, its replay line and its last steps must reach standard
/// error first, or the crash cannot be reproduced.
@Suite struct CrashNoteTests {
    @Test func aDoubleResumeThatTrapsStillPrintsItsSeedAndTrace() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = await explore(schedules: 10, strategy: .random, seed: 7) { _ in
                async let other: Void = Task.yield()
                await Task.yield()
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    continuation.resume()
                    continuation.resume()  // the runtime traps: resumed twice
                }
                await other
            }
        }
        let stderr = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        let note = stderr.split(separator: "\n").filter { $0.contains("explorer") || $0.hasPrefix("  ") }
        print("crash note as the child printed it:\n" + note.joined(separator: "\n"))
        #expect(stderr.contains("explorer: the process is dying of signal"), "\(stderr)")
        #expect(stderr.contains("explorer: replay it: replay(seed: 0x"), "\(stderr)")
        #expect(stderr.contains("strategy: .random)"), "\(stderr)")
        #expect(stderr.contains(" t1 task"), "\(stderr)")
    }

    @Test func aForceUnwrappedNilInTheBodyPrintsItsSchedule() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = await explore(schedules: 3, strategy: .pct(depth: 2, steps: 10), seed: 3) { exploration in
                let missing: Int? = exploration.index == 2 ? nil : 1
                _ = missing!
            }
        }
        let stderr = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("in schedule 3 of 3"), "the schedule of index 2, counted from 1: \(stderr)")
        #expect(stderr.contains("strategy: .pct(depth: 2, steps: 10))"), "\(stderr)")
    }

    /// The seed of schedule 4 of an exploration seeded with 11.
    static let crashingSeed = SplitMix64.scheduleSeed(11, index: 4)

    /// The body of `aCrashInAChildIsAFailureWhoseSeedReplays`: a double resume in the schedule of `crashingSeed` only
    /// (schedule 4 of the exploration, and its replay).
    static func doubleResumeInScheduleFour(_ exploration: Exploration) async {
        async let other: Void = Task.yield()
        await Task.yield()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            continuation.resume()
            if exploration.seed == crashingSeed { continuation.resume() }  // the runtime traps: resumed twice
        }
        await other
    }

    /// Schedules run in a child process on request: the parent lives on, reads the child's crash note back as a
    /// failure of kind `.crashed`, and its seed, replayed in another child, dies the same way in the same schedule.
    @Test func aCrashInAChildIsAFailureWhoseSeedReplays() async throws {
        let child = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = await explore(schedules: 10, strategy: .pct(depth: 2, steps: 20), seed: 11) {
                await CrashNoteTests.doubleResumeInScheduleFour($0)
            }
        }
        let note = String(decoding: try #require(child).standardErrorContent, as: UTF8.self)
        let failure = try #require(ExplorationFailure(crashNote: note), "no crash note in: \(note)")
        #expect(failure.kind == .crashed(signal: SIGILL) || failure.kind == .crashed(signal: SIGTRAP), "\(failure)")
        #expect(failure.schedule == 4 && failure.of == 10, "\(failure)")
        #expect(failure.strategy == .pct(depth: 2, steps: 20), "\(failure)")
        // Every step the note printed, the last one (the step that crashed) included.
        let printedSteps = note.split(separator: "\n").drop { !$0.hasPrefix("explorer: its last steps:") }.dropFirst()
            .prefix { $0.hasPrefix("  ") }.map(String.init)
        #expect(
            !printedSteps.isEmpty && failure.trace.split(separator: "\n").map(String.init) == printedSteps, "\(note)")
        #expect(failure.description.contains("replay it: replay(seed: \(SplitMix64.text(failure.seed))"), "\(failure)")

        let replayed = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            [seed = failure.seed as UInt64] in
            _ = await replay(seed: seed, strategy: .pct(depth: 2, steps: 20)) {
                await CrashNoteTests.doubleResumeInScheduleFour($0)
            }
        }
        let again = ExplorationFailure(
            crashNote: String(decoding: try #require(replayed).standardErrorContent, as: UTF8.self))
        // The same seed, the same steps: the replay's trace is the crashed schedule's, line for line.
        #expect(again?.seed == failure.seed && again?.trace == failure.trace, "\(String(describing: again))")
        #expect(again?.schedule == 0 && again?.of == 1, "a replay is schedule 0 of 1: \(String(describing: again))")
    }

    @Test func outputWithoutACrashNoteIsNoFailure() {
        #expect(ExplorationFailure(crashNote: "") == nil)
        #expect(ExplorationFailure(crashNote: "Fatal error: something else\n") == nil)
        #expect(ExplorationFailure(crashNote: "explorer: the process is dying of signal x in schedule") == nil)
        // Cut off right after "(seed": an outside review found the parser read past the words it had.
        #expect(
            ExplorationFailure(crashNote: "explorer: the process is dying of signal 4 in schedule 1 of 10 (seed") == nil
        )
    }
}
