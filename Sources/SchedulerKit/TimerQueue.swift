import DequeModule
import HeapModule

/// Delayed work ordered by (deadline, submission sequence): equal deadlines run FIFO, which Dispatch's own
/// `asyncAfter` does not promise (1 000 equal deadlines come out nearly reversed on Linux). Not thread-safe:
/// each owner guards it with its own lock. Shared by the Dispatch, thread-pool and virtual-time schedulers.
///
/// Entries that arrive in order (no earlier than the last one that did) go to a FIFO instead of the heap, so the
/// common cases (work due now on virtual time, equal or growing deadlines) cost O(1) instead of a heap's O(log n)
/// cache misses. Both parts stay sorted; popping takes the smaller of their heads.
struct TimerQueue<Payload> {
    struct Entry: Comparable {
        let deadline: SchedulerTime
        let sequence: UInt64
        let payload: Payload
        static func < (a: Entry, b: Entry) -> Bool { (a.deadline, a.sequence) < (b.deadline, b.sequence) }
        static func == (a: Entry, b: Entry) -> Bool { a.deadline == b.deadline && a.sequence == b.sequence }
    }

    private var heap = Heap<Entry>()
    /// Entries in (deadline, sequence) order, each no earlier than the one before.
    private var inOrder = Deque<Entry>()
    private var nextSequence: UInt64 = 0
    private var purgeThreshold = 1024

    var isEmpty: Bool { heap.isEmpty && inOrder.isEmpty }
    /// Every entry, in no particular order (what is left, looked at without taking it). Appended one by one: copying
    /// an empty deque into a new array writes the count of the shared empty-array storage, which ThreadSanitizer
    /// reports as a race between two engines.
    var entries: [Entry] {
        var all = heap.unordered
        for entry in inOrder { all.append(entry) }
        return all
    }
    var count: Int { heap.count + inOrder.count }
    var earliestDeadline: SchedulerTime? {
        switch earliestIsInFIFO {
        case true?: inOrder.first?.deadline
        case false?: heap.min?.deadline
        case nil: nil
        }
    }

    /// Which part holds the earliest entry (true: the FIFO); nil when both are empty.
    private var earliestIsInFIFO: Bool? {
        guard let fromFIFO = inOrder.first else { return heap.isEmpty ? nil : false }
        guard let fromHeap = heap.min else { return true }
        return fromFIFO < fromHeap
    }

    /// A fresh sequence number, for entries that must keep their place among equal deadlines (repeating ticks).
    mutating func takeSequence() -> UInt64 {
        defer { nextSequence += 1 }
        return nextSequence
    }

    mutating func insert(_ payload: Payload, at deadline: SchedulerTime, sequence: UInt64? = nil) {
        let entry = Entry(deadline: deadline, sequence: sequence ?? takeSequence(), payload: payload)
        if let last = inOrder.last, entry < last {
            heap.insert(entry)
        } else {
            inOrder.append(entry)
        }
    }

    /// Removes and returns the earliest entry if it is due at `now`.
    mutating func popDue(at now: SchedulerTime) -> Entry? {
        switch earliestIsInFIFO {
        case true?: inOrder.first!.deadline <= now ? inOrder.removeFirst() : nil
        case false?: heap.min!.deadline <= now ? heap.removeMin() : nil
        case nil: nil
        }
    }

    /// Removes the earliest entries due at `deadline` or earlier, at most `maxCount`, appending them to `batch` in
    /// order. While the heap holds nothing that early, they are a prefix of the FIFO and leave it in one move;
    /// otherwise the two parts are merged one entry at a time.
    mutating func popDue(at deadline: SchedulerTime, atMost maxCount: Int, into batch: inout [Entry]) {
        if heap.min.map({ $0.deadline > deadline }) ?? true {
            var taken = 0
            for entry in inOrder.prefix(maxCount) {
                guard entry.deadline <= deadline else { break }
                taken += 1
            }
            batch.append(contentsOf: inOrder.prefix(taken))
            inOrder.removeFirst(taken)
            return
        }
        for _ in 0..<maxCount {
            guard let entry = popDue(at: deadline) else { return }
            batch.append(entry)
        }
    }

    /// Removes and returns the earliest entry whatever its deadline.
    mutating func popEarliest() -> Entry? {
        switch earliestIsInFIFO {
        case true?: inOrder.removeFirst()
        case false?: heap.removeMin()
        case nil: nil
        }
    }

    /// Drops the entries for which `isDead` holds, once the queue has doubled since the last purge, so cancelled
    /// far-future work (timeouts) cannot pile up: amortised O(1) per insert. Each dropped entry goes to `discard`
    /// (an owner whose payloads are unmanaged references releases them there). The queue is rebuilt only when it
    /// holds a dead entry: a scan reads, a rebuild copies every entry.
    mutating func purgeIfGrown(_ isDead: (Payload) -> Bool, discard: (Payload) -> Void = { _ in }) {
        guard count >= purgeThreshold else { return }
        defer { purgeThreshold = max(1024, count * 2) }
        guard heap.unordered.contains(where: { isDead($0.payload) }) || inOrder.contains(where: { isDead($0.payload) })
        else { return }
        heap = Heap(
            heap.unordered.filter { entry in
                guard isDead(entry.payload) else { return true }
                discard(entry.payload)
                return false
            })
        inOrder.removeAll { entry in
            guard isDead(entry.payload) else { return false }
            discard(entry.payload)
            return true
        }
    }

    /// Drops the entries for which `isDead` holds, now: a timer's sweep, so that cancelled work leaves nothing behind
    /// (neither its entry nor what the entry keeps alive) long after its cancel. It goes through ``purgeIfGrown`` with
    /// the threshold lifted rather than share a helper with it: `purgeIfGrown` is inlined on every insert, and a
    /// shared out-of-line body cost `TestScheduler` 14 instructions a schedule (`bench check`: 466 against 452).
    @inline(never)
    mutating func purge(_ isDead: (Payload) -> Bool, discard: (Payload) -> Void = { _ in }) {
        let threshold = purgeThreshold
        purgeThreshold = 0
        purgeIfGrown(isDead, discard: discard)
        purgeThreshold = threshold
    }

    mutating func removeAll() -> [Payload] {
        defer {
            heap = Heap()
            inOrder = Deque()
        }
        return heap.unordered.map(\.payload) + inOrder.map(\.payload)
    }
}

/// The first tick of a fixed-rate grid `start + k·interval` that is strictly after `previous` and not before `now`:
/// missed ticks are coalesced into one, and the grid never drifts.
func nextFixedRateTick(start: SchedulerTime, interval: Duration, previous: SchedulerTime, now: SchedulerTime)
    -> SchedulerTime
{
    let step = interval.nanosecondsChecked(argument: "interval")
    let earliest = max(previous.nanoseconds + 1, now.nanoseconds)
    let k = (earliest - start.nanoseconds + step - 1) / step
    let (offset, overflow) = k.multipliedReportingOverflow(by: step)
    if overflow { return .distantFuture }
    let (next, overflow2) = start.nanoseconds.addingReportingOverflow(offset)
    return overflow2 ? .distantFuture : SchedulerTime(nanoseconds: next)
}
