import Foundation
import SchedulerExplorer
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
        #expect(stderr.contains("in schedule 2 of 3"), "\(stderr)")
        #expect(stderr.contains("strategy: .pct(depth: 2, steps: 10))"), "\(stderr)")
    }
}
