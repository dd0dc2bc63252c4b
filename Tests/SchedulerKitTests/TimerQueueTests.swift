import TestSupport
import Testing

@testable import SchedulerKit

@Suite struct TimerQueueTests {
    @Test func equalDeadlinesComeOutInSubmissionOrder() {
        var queue = TimerQueue<Int>()
        for i in 0..<1_000 { queue.insert(i, at: SchedulerTime(nanoseconds: 5)) }
        queue.insert(-1, at: SchedulerTime(nanoseconds: 1))
        var out: [Int] = []
        while let entry = queue.popDue(at: SchedulerTime(nanoseconds: 5)) { out.append(entry.payload) }
        #expect(out == [-1] + Array(0..<1_000))
    }

    /// In-order arrivals take the FIFO, the rest the heap. Mixed arrivals with pops in between must come out exactly
    /// as from a plain list searched for its smallest due (deadline, submission) entry.
    @Test func mixedArrivalsComeOutAsFromASortedList() {
        var queue = TimerQueue<Int>()
        var reference: [(deadline: Int64, id: Int)] = []
        var random = SystemRandomNumberGenerator()
        var now: Int64 = 0
        var popped = 0
        for id in 0..<5_000 {
            // Due now, later, or (sometimes) earlier than the last arrival: both parts of the queue get used.
            let deadline = max(0, now + Int64.random(in: -20..<40, using: &random))
            queue.insert(id, at: SchedulerTime(nanoseconds: deadline))
            reference.append((deadline, id))
            guard id % 5 == 0 else { continue }
            now += 7
            while let entry = queue.popDue(at: SchedulerTime(nanoseconds: now)) {
                let smallest = reference.indices.filter { reference[$0].deadline <= now }
                    .min { (reference[$0].deadline, reference[$0].id) < (reference[$1].deadline, reference[$1].id) }
                #expect(smallest.map { reference[$0].id } == entry.payload)
                if let smallest { reference.remove(at: smallest) }
                popped += 1
            }
            #expect(!reference.contains { $0.deadline <= now }, "a due entry was left behind")
        }
        #expect(popped > 0 && queue.count == reference.count)
    }

    @Test func onlyDueEntriesPop() {
        var queue = TimerQueue<String>()
        queue.insert("late", at: SchedulerTime(nanoseconds: 100))
        #expect(queue.popDue(at: SchedulerTime(nanoseconds: 99)) == nil)
        #expect(queue.earliestDeadline == SchedulerTime(nanoseconds: 100))
        #expect(queue.popDue(at: SchedulerTime(nanoseconds: 100))?.payload == "late")
    }

    @Test func purgeDropsDeadEntriesOnceGrown() {
        var queue = TimerQueue<Int>()
        for i in 0..<2_000 {
            queue.insert(i, at: SchedulerTime(nanoseconds: Int64(i)))
            queue.purgeIfGrown { $0 % 2 == 0 }
        }
        #expect(queue.count < 2_000)
        var previous = -1
        while let entry = queue.popEarliest() {
            #expect(entry.payload > previous)
            previous = entry.payload
        }
    }

    /// The batched pop takes a FIFO prefix in one move when the heap has nothing as early, and merges the two parts
    /// entry by entry when it does: either way it yields exactly what single pops would, in the same order.
    @Test(arguments: [false, true])
    func batchedPopsMatchSinglePops(heapHoldsTies: Bool) {
        func filled() -> TimerQueue<Int> {
            var queue = TimerQueue<Int>()
            for i in 0..<100 { queue.insert(i, at: SchedulerTime(nanoseconds: 10)) }
            for i in 100..<110 { queue.insert(i, at: SchedulerTime(nanoseconds: 20)) }
            // Earlier than the FIFO's last entry, so into the heap: a tie at 10 when asked, else later than 10.
            queue.insert(200, at: SchedulerTime(nanoseconds: heapHoldsTies ? 10 : 15))
            return queue
        }
        var single = filled()
        var expected: [Int] = []
        while expected.count < 64, let entry = single.popDue(at: SchedulerTime(nanoseconds: 10)) {
            expected.append(entry.payload)
        }
        var batched = filled()
        var batch: [TimerQueue<Int>.Entry] = []
        batched.popDue(at: SchedulerTime(nanoseconds: 10), atMost: 64, into: &batch)
        #expect(batch.map(\.payload) == expected)
        #expect(batched.count == single.count)
        batch.removeAll()
        batched.popDue(at: SchedulerTime(nanoseconds: 10), atMost: 64, into: &batch)
        #expect(batch.count == (heapHoldsTies ? 101 : 100) - 64, "what is left at 10, with the heap's tie if any")
        #expect(batched.popEarliest()?.payload == (heapHoldsTies ? 100 : 200))
    }

    @Test func purgeHandsEveryDroppedEntryToDiscard() {
        var queue = TimerQueue<Int>()
        var discarded: [Int] = []
        for i in 0..<2_000 {
            queue.insert(i, at: SchedulerTime(nanoseconds: Int64(i % 7 == 0 ? 5_000 - i : i)))
            queue.purgeIfGrown({ $0 % 3 == 0 }, discard: { discarded.append($0) })
        }
        var left: [Int] = []
        while let entry = queue.popEarliest() { left.append(entry.payload) }
        #expect(Set(discarded).isDisjoint(with: left))
        #expect((Set(discarded).union(left)) == Set(0..<2_000), "every entry is either left or discarded, once")
        #expect(discarded.count == Set(discarded).count)
        #expect(!discarded.isEmpty)
    }

    @Test func fixedRateGridCoalescesMissedTicksAndNeverDrifts() {
        let start = SchedulerTime(nanoseconds: 1_000)
        let ten = Duration.nanoseconds(10)
        #expect(nextFixedRateTick(start: start, interval: ten, previous: start, now: start).nanoseconds == 1_010)
        // Ran 35 ns late: the ticks at 1 010, 1 020 and 1 030 coalesce into the next one on the grid.
        #expect(
            nextFixedRateTick(start: start, interval: ten, previous: start, now: SchedulerTime(nanoseconds: 1_035))
                .nanoseconds == 1_040)
        #expect(
            nextFixedRateTick(start: start, interval: ten, previous: start, now: SchedulerTime(nanoseconds: 1_040))
                .nanoseconds == 1_040)
    }
}
