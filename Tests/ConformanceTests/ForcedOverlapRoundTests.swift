import Dispatch
import Foundation
import SchedulerKit
import Testing

@testable import SchedulerConformance

/// S1's forced rounds wait until Dispatch's pools could have started the second task, not a fixed time: a process
/// that holds the pools' threads must not let a "serial" scheduler that is really the global queue pass.
///
/// Serialized: the two checks that hold pool threads would otherwise hold twice as many, and starve each other.
@Suite(.serialized) struct ForcedOverlapRoundTests {
    /// Two blocks that sleep on each of three pools for the whole check (this machine's pools start 2 wide): a
    /// second task on the global queue gets a thread only when libdispatch's monitor adds one, after a second or more.
    private static func holdingPools(_ body: () -> Void) {
        let released = Counter()
        let holding = Counter()
        for qos in [DispatchQoS.QoSClass.default, .userInitiated, .utility] {
            for _ in 0..<2 {
                DispatchQueue.global(qos: qos).async {
                    holding.increment()
                    while released.value == 0 { usleep(1_000) }
                }
            }
        }
        defer { released.increment() }
        body()
    }

    @Test func s1CatchesTheGlobalQueueWhileThePoolsAreTaken() {
        Self.holdingPools {
            let result = ConformanceBackend(name: "global queue posing as serial") { GlobalQueueAsSerialScheduler() }
                .evaluate(SerialRules.exclusion)
            switch result.outcome {
            case .failed(let detail):
                // A forced round's overlap, or, where a loaded process starved the rounds, the flood's.
                #expect(detail.contains("started while"), "\(detail)")
            case .passed(let note) where note.contains("ran nothing queued after the second task"):
                // The process's load gave the pools no thread within the round's limit, and the verdict says so:
                // what the rule promises then. Silence would be the defect.
                break
            default:
                Issue.record("S1 passed a scheduler that runs tasks on the global queue: \(result)")
            }
        }
    }

    @Test func aSerialQueueIsApartWhileThePoolsAreTaken() {
        Self.holdingPools {
            let result = ConformanceBackend(name: "dispatch serial queue") { DispatchQueueScheduler(name: "rounds") }
                .evaluate(SerialRules.exclusion)
            guard case .passed(let note) = result.outcome else {
                Issue.record("S1 failed a Dispatch serial queue: \(result)")
                return
            }
            // Its task runs on a thread of its own, never the submitting one. (Whether the held pools ran the marks
            // within the round's limit is the load's: the verdict may say they did not.)
            #expect(!note.contains("nothing could overlap"), "\(note)")
        }
    }

    /// A task run inline on the submitting thread cannot be overlapped by a second one that thread submits: the
    /// round says so at once, rather than waiting for pools that have nothing to do with it.
    @Test func aRoundOnTheSubmittingThreadIsVacuous() {
        let round = ForcedOverlapRound()
        round.hold()
        #expect(round.outcome == .vacuous)
        #expect(ForcedOverlapRound.caveat([.apart, .vacuous])?.contains("nothing could overlap") == true)
    }

    @Test func aMarkCatchesUpOnlyOnceItsBlocksRanAndItsFloorPassed() {
        let mark = DispatchPoolMark()
        #expect(!mark.caughtUp(floor: .seconds(3_600), grace: .zero))
        // A generous bound: the blocks need a thread of each pool, which a loaded process gives late.
        poll(upTo: .seconds(60)) { mark.caughtUp(floor: .zero, grace: .zero) }
        #expect(mark.caughtUp(floor: .zero, grace: .zero))
        #expect(!mark.caughtUp(floor: .zero, grace: .seconds(3_600)))
    }
}
