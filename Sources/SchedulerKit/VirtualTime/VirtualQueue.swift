import HeapModule
import Synchronization

/// The queue of a virtual-time engine: every entry in a slot of one slab that the queue reuses, ordered by (due
/// time, sequence). Not thread-safe: the engine's state lock guards all of it but ``claims``.
///
/// Entries that arrive in order (no earlier than the last one that did: work due now, equal or growing deadlines)
/// are linked into a first-in-first-out list through their slots, at the cost of a store; the others go to a heap of
/// keys. Popping takes the smaller of the two heads. A slot is taken from the free list, or from a new chunk of
/// slots once every slot is taken, so scheduling allocates nothing once the slab is as large as the most work ever
/// queued at once, and growing it copies nothing (chunks never move).
///
/// A slot holds a closure (`TestScheduler`'s work, whose handle is a ``VirtualTaskHandle`` naming the slot and its
/// sequence number) or a ``VirtualWork`` (a node with its own handle, or a repeating tick). A cancelled closure
/// leaves its slot at once and its entry stays queued, dead, until it is reached or purged.
final class VirtualQueue {
    /// What a slot holds: a closure, a node or tick, or nothing. A struct of two optionals rather than an enum, so
    /// that dropping one releases the closure's context in line instead of through an outlined destroy.
    struct Payload {
        var closure: (@Sendable () -> Void)?
        var work: VirtualWork?

        init(closure: (@Sendable () -> Void)? = nil, work: VirtualWork? = nil) {
            self.closure = closure
            self.work = work
        }
    }

    /// An entry taken out of the queue.
    struct Entry {
        let deadline: SchedulerTime
        let sequence: UInt64
        let payload: Payload
    }

    private enum SlotState: UInt8 {
        case free
        /// In the first-in-first-out list or the heap.
        case queued
        /// Queued, its closure dropped by a cancel: skipped and freed when reached or purged.
        case cancelled
        /// Taken out to run in a batch (``takeBatch``): whether it starts or is cancelled is settled by ``claims``
        /// while the batch is the current one. Freed, as it is, when the next batch is taken: a slot of an ended
        /// batch that still reads batched ran.
        case batched
    }

    private struct Slot {
        /// Stored with `initialize` over an empty payload and taken with `move` (which leaves an empty one): no
        /// destroy of what was there, and no reference counted.
        var payload: Payload
        var deadline: SchedulerTime
        var sequence: UInt64
        /// The next slot in the first-in-first-out list, or in the free list; -1: none.
        var next: Int32
        var state: SlotState
        /// Its index in the batch, while batched.
        var batchIndex: UInt8
    }

    private struct Key: Comparable {
        let deadline: SchedulerTime
        let sequence: UInt64
        let slot: Int32
        static func < (a: Key, b: Key) -> Bool { (a.deadline, a.sequence) < (b.deadline, b.sequence) }
        static func == (a: Key, b: Key) -> Bool { a.deadline == b.deadline && a.sequence == b.sequence }
    }

    /// Slots live in chunks of `chunkSize` that never move, found through a table of chunks that grows by doubling.
    private static let chunkShift = 8
    private static let chunkSize = 1 << chunkShift
    // Unchecked: the engine's lock already makes every access exclusive.
    /// Allocated with the first slot (an engine whose work all goes to a strategy's ready list never needs one).
    @exclusivity(unchecked) private var chunks: UnsafeMutablePointer<UnsafeMutablePointer<Slot>>?
    @exclusivity(unchecked) private var chunkCapacity = 0
    @exclusivity(unchecked) private var chunkCount = 0
    /// Slots ever handed out; those from here on are uninitialised.
    @exclusivity(unchecked) private var used: Int32 = 0
    @exclusivity(unchecked) private var freeHead: Int32 = -1
    @exclusivity(unchecked) private var head: Int32 = -1
    @exclusivity(unchecked) private var tail: Int32 = -1
    @exclusivity(unchecked) private var heap = Heap<Key>()
    /// Entries queued, live or cancelled.
    @exclusivity(unchecked) private(set) var count = 0
    @exclusivity(unchecked) private var nextSequence: UInt64 = 0
    @exclusivity(unchecked) private var purgeThreshold = 1024
    /// The current batch: what runs at each place (a closure, or a node or tick), the slot of each closure by its
    /// place (-1 for a node or tick, whose slot is freed at once), and how many places. Only the driving thread
    /// touches the work, when it takes the batch (with the lock) and as it runs it (without).
    /// Both allocated with the first batch (an engine with a strategy takes none).
    @exclusivity(unchecked) private var batchWork: UnsafeMutablePointer<Payload>?
    /// The closures' slots are also chained through their `next`, from the last batched to the first, so that they
    /// join the free list in one step.
    @exclusivity(unchecked) private var batchSlots: UnsafeMutablePointer<Int32>?
    @exclusivity(unchecked) private var batchSize = 0
    @exclusivity(unchecked) private var batchFirst: Int32 = -1
    @exclusivity(unchecked) private var batchLast: Int32 = -1

    /// At most this many entries leave the queue in one batch: one bit each in each half of ``claims``.
    static let batchLimit = 32
    /// Who won each closure of the current batch: bit `i` is set by the runner as it starts the batch's `i`-th
    /// closure, bit `32 + i` by the `cancel()` that stopped it first. Each side sets its bit with one atomic OR and
    /// reads the other's in the value it replaced, so exactly one wins, and the runner takes no lock per task.
    let claims = Atomic<UInt64>(0)

    init() {}

    deinit {
        for chunk in 0..<chunkCount {
            chunks.unsafelyUnwrapped[chunk].deinitialize(
                count: min(Self.chunkSize, Int(used) - chunk * Self.chunkSize))
            chunks.unsafelyUnwrapped[chunk].deallocate()
        }
        chunks?.deallocate()
        batchSlots?.deallocate()
        batchWork?.deallocate()
    }

    @inline(__always)
    private func slot(_ index: Int32) -> UnsafeMutablePointer<Slot> {
        chunks.unsafelyUnwrapped[Int(index) &>> Self.chunkShift] + (Int(index) & (Self.chunkSize &- 1))
    }

    var isEmpty: Bool { count == 0 }

    /// A fresh sequence number, for entries that must keep their place among equal deadlines (repeating ticks).
    @inline(__always)
    func takeSequence() -> UInt64 {
        defer { nextSequence &+= 1 }
        return nextSequence
    }

    // MARK: Adding

    /// Queues `payload` due at `deadline` with the sequence number already taken; returns its slot.
    @discardableResult @inline(__always)
    func insert(_ payload: Payload, at deadline: SchedulerTime, sequence: UInt64) -> Int32 {
        let index: Int32
        let entry: UnsafeMutablePointer<Slot>
        if freeHead >= 0 {
            index = freeHead
            entry = slot(index)
            freeHead = entry.pointee.next
        } else {
            index = grow()
            entry = slot(index)
        }
        entry.pointee.deadline = deadline
        entry.pointee.sequence = sequence
        entry.pointee.state = .queued
        // It holds an empty payload, which has nothing to destroy.
        withUnsafeMutablePointer(to: &entry.pointee.payload) { $0.initialize(to: payload) }
        count &+= 1
        if tail >= 0, precedes(deadline, sequence, tail) {
            heap.insert(Key(deadline: deadline, sequence: sequence, slot: index))
        } else {
            entry.pointee.next = -1
            if tail >= 0 { slot(tail).pointee.next = index } else { head = index }
            tail = index
        }
        return index
    }

    /// Whether (deadline, sequence) comes before the entry in `slot`.
    @inline(__always)
    private func precedes(_ deadline: SchedulerTime, _ sequence: UInt64, _ slot: Int32) -> Bool {
        let other = self.slot(slot)
        return deadline < other.pointee.deadline
            || (deadline == other.pointee.deadline && sequence < other.pointee.sequence)
    }

    /// A slot past the last one handed out, with a new chunk when the last one is full.
    @inline(never)
    private func grow() -> Int32 {
        if Int(used) == chunkCount * Self.chunkSize {
            if chunkCount == chunkCapacity {
                let capacity = max(4, chunkCapacity * 2)
                let larger = UnsafeMutablePointer<UnsafeMutablePointer<Slot>>.allocate(capacity: capacity)
                if let chunks { larger.moveInitialize(from: chunks, count: chunkCount) }
                chunks?.deallocate()
                chunks = larger
                chunkCapacity = capacity
            }
            chunks.unsafelyUnwrapped[chunkCount] = .allocate(capacity: Self.chunkSize)
            chunkCount += 1
        }
        slot(used).initialize(
            to: Slot(payload: Payload(), deadline: .zero, sequence: 0, next: -1, state: .free, batchIndex: 0))
        used += 1
        return used - 1
    }

    /// Takes the slot's work out, leaving it empty.
    @inline(__always)
    private func takePayload(_ index: Int32) -> Payload {
        withUnsafeMutablePointer(to: &slot(index).pointee.payload) { payload in
            defer { payload.initialize(to: Payload()) }
            return payload.move()
        }
    }

    /// Puts a slot whose work was taken out on the free list.
    @inline(__always)
    private func free(_ index: Int32) {
        let entry = slot(index)
        entry.pointee.state = .free
        entry.pointee.next = freeHead
        freeHead = index
    }

    // MARK: Looking

    /// The slot of the earliest entry, and whether it heads the first-in-first-out list; nil when empty.
    @inline(__always)
    private var earliest: (slot: Int32, inList: Bool)? {
        guard let key = heap.min else { return head >= 0 ? (head, true) : nil }
        if head >= 0, !precedes(key.deadline, key.sequence, head) { return (head, true) }
        return (key.slot, false)
    }

    var earliestDeadline: SchedulerTime? { earliest.map { slot($0.slot).pointee.deadline } }

    /// Whether the entry in `index` will never run: its closure was cancelled, or its node or repetition was.
    private func isDead(_ index: Int32) -> Bool {
        let entry = slot(index)
        switch entry.pointee.state {
        case .cancelled: return true
        case .queued: return entry.pointee.payload.work?.isDead ?? false
        case .free, .batched: return false
        }
    }

    /// Every queued entry, live or not, in no particular order, without taking any: its due time, sequence number,
    /// and work (nil for a closure).
    var entries: [(deadline: SchedulerTime, sequence: UInt64, work: VirtualWork?, isDead: Bool)] {
        var all: [(deadline: SchedulerTime, sequence: UInt64, work: VirtualWork?, isDead: Bool)] = []
        func add(_ index: Int32) {
            let entry = slot(index)
            all.append((entry.pointee.deadline, entry.pointee.sequence, entry.pointee.payload.work, isDead(index)))
        }
        var index = head
        while index >= 0 {
            add(index)
            index = slot(index).pointee.next
        }
        for key in heap.unordered { add(key.slot) }
        return all
    }

    // MARK: Taking

    /// Removes the earliest entry from its part of the queue, leaving its slot as it is.
    @inline(__always)
    private func unlink(_ earliest: (slot: Int32, inList: Bool)) {
        if earliest.inList {
            head = slot(earliest.slot).pointee.next
            if head < 0 { tail = -1 }
        } else {
            _ = heap.removeMin()
        }
        count &-= 1
    }

    /// Takes the earliest entry, live or not, if it is due by `limit`, and frees its slot.
    func popDue(at limit: SchedulerTime) -> Entry? {
        guard let first = earliest, slot(first.slot).pointee.deadline <= limit else { return nil }
        unlink(first)
        return take(first.slot)
    }

    /// The earliest live entry if it is due by `limit`; cancelled ones met first are dropped (their work released),
    /// so they never move the clock (whether reached here or purged earlier, the final `now` is the same).
    func popLive(dueBy limit: SchedulerTime, discard: (UInt64) -> Void) -> Entry? {
        popLiveSlot(dueBy: limit, discard: discard).map(take)
    }

    /// The slot of the earliest live entry due by `limit`, unlinked and still holding it; dead ones met first are
    /// dropped and freed.
    private func popLiveSlot(dueBy limit: SchedulerTime, discard: (UInt64) -> Void) -> Int32? {
        while let first = earliest, slot(first.slot).pointee.deadline <= limit {
            unlink(first)
            guard isDead(first.slot) else { return first.slot }
            drop(first.slot, discard: discard)
        }
        return nil
    }

    /// Frees an unlinked dead entry's slot, giving back its work's reference.
    private func drop(_ slot: Int32, discard: (UInt64) -> Void) {
        let dead = take(slot)
        discard(dead.sequence)
        dead.payload.work?.release()
    }

    private func take(_ index: Int32) -> Entry {
        let entry = Entry(
            deadline: slot(index).pointee.deadline, sequence: slot(index).pointee.sequence, payload: takePayload(index))
        free(index)
        return entry
    }

    /// Frees the slots of the last batch: every closure in it has been started or stopped by then (the runner takes
    /// the next batch, or leaves the drive, only after the last one).
    private func endBatch() {
        if batchFirst >= 0 {
            slot(batchFirst).pointee.next = freeHead
            freeHead = batchLast
            batchFirst = -1
            batchLast = -1
        }
        batchSize = 0
        claims.store(0, ordering: .relaxed)
    }

    /// Takes the earliest live entry due by `limit` and the entries due at the same time after it, up to `maxCount`
    /// of them, into the batch, in order; returns how many and their due time (nil if none is due). Dead entries
    /// met are dropped. The runner takes each place's work out with ``takeBatched(at:)``, all of them, before it
    /// takes the next batch; closures stay cancellable until it starts them (``claim(_:)``).
    func takeBatch(
        dueBy limit: SchedulerTime, atMost maxCount: Int, discard: (UInt64) -> Void
    ) -> (count: Int, due: SchedulerTime)? {
        if batchSize > 0 { endBatch() }
        if batchWork == nil {
            batchWork = .allocate(capacity: Self.batchLimit)
            batchSlots = .allocate(capacity: Self.batchLimit)
        }
        guard let first = popLiveSlot(dueBy: limit, discard: discard) else { return nil }
        let due = slot(first).pointee.deadline
        addToBatch(first, at: 0)
        var taken = 1
        if heap.isEmpty {
            // The common case: the rest of the batch is a prefix of the list.
            while taken < maxCount, head >= 0, slot(head).pointee.deadline <= due {
                let next = head
                let entry = slot(next)
                head = entry.pointee.next
                count &-= 1
                if entry.pointee.state != .queued || isDead(next) {
                    drop(next, discard: discard)
                    continue
                }
                addToBatch(next, at: taken)
                taken += 1
            }
            if head < 0 { tail = -1 }
            batchSize = taken
            return (taken, due)
        }
        while taken < maxCount, let next = earliest, slot(next.slot).pointee.deadline <= due {
            unlink(next)
            if isDead(next.slot) {
                drop(next.slot, discard: discard)
                continue
            }
            addToBatch(next.slot, at: taken)
            taken += 1
        }
        batchSize = taken
        return (taken, due)
    }

    /// Moves an unlinked live entry's work to `batch[index]`; a closure's slot stays batched, so that a cancel
    /// through its handle still finds it, and any other slot is freed.
    @inline(__always)
    private func addToBatch(_ slotIndex: Int32, at index: Int) {
        let entry = slot(slotIndex)
        let batchWork = batchWork.unsafelyUnwrapped
        let batchSlots = batchSlots.unsafelyUnwrapped
        // Moved as it is, bits and all: no reference is counted.
        withUnsafeMutablePointer(to: &entry.pointee.payload) { payload in
            (batchWork + index).moveInitialize(from: payload, count: 1)
            payload.initialize(to: Payload())
        }
        if batchWork[index].closure != nil {
            entry.pointee.state = .batched
            entry.pointee.batchIndex = UInt8(truncatingIfNeeded: index)
            entry.pointee.next = batchLast
            if batchFirst < 0 { batchFirst = slotIndex }
            batchLast = slotIndex
            batchSlots[index] = slotIndex
        } else {
            batchSlots[index] = -1
            free(slotIndex)
        }
    }

    /// Takes the work at the batch's `index`-th place out (a closure, or a node or tick); the driving thread only.
    @inline(__always)
    func takeBatched(at index: Int) -> Payload { (batchWork.unsafelyUnwrapped + index).move() }

    /// Whether the runner may start the `index`-th closure of the batch (false: a cancel stopped it first). Called
    /// without the lock, once per closure.
    @inline(__always)
    func claim(_ index: Int) -> Bool {
        let bit: UInt64 = 1 &<< UInt64(truncatingIfNeeded: index)
        return claims.bitwiseOr(bit, ordering: .acquiringAndReleasing).oldValue & (bit &<< 32) == 0
    }

    // MARK: Cancelling

    /// What a cancel through a handle did.
    enum Cancelled {
        /// The closure will never run; it is handed back to be released once the lock is let go (nil: the runner
        /// holds it, and drops it unrun).
        case stopped(Payload)
        /// It ran, is running, was cancelled already, or the slot is another task's now.
        case tooLate
    }

    /// Stops the closure in `slot` if the slot still holds the task numbered `sequence` and it has not started.
    func cancel(slot index: Int32, sequence: UInt64) -> Cancelled {
        guard index >= 0, index < used else { return .tooLate }
        let entry = slot(index)
        guard entry.pointee.sequence == sequence else { return .tooLate }
        switch entry.pointee.state {
        case .queued:
            entry.pointee.state = .cancelled
            return .stopped(takePayload(index))
        case .batched:
            let place = UInt64(entry.pointee.batchIndex)
            // Not in the current batch: its batch ended, so it ran.
            guard place < batchSize, batchSlots.unsafelyUnwrapped[Int(place)] == index else { return .tooLate }
            let bit: UInt64 = 1 &<< place
            let old = claims.bitwiseOr(bit &<< 32, ordering: .acquiringAndReleasing).oldValue
            guard old & bit == 0 else { return .tooLate }
            entry.pointee.state = .cancelled
            return .stopped(Payload())
        case .free, .cancelled:
            return .tooLate
        }
    }

    // MARK: Dropping

    /// Drops the dead entries once the queue has doubled since the last purge, so cancelled far-future work
    /// (timeouts) cannot pile up: amortised O(1) per insert.
    @inline(__always)
    func purgeIfGrown() {
        guard count >= purgeThreshold else { return }
        purge()
        purgeThreshold = max(1024, count * 2)
    }

    /// Drops every dead entry now (their work released).
    @inline(never)
    func purge() {
        var previous: Int32 = -1
        var index = head
        while index >= 0 {
            let next = slot(index).pointee.next
            if isDead(index) {
                if previous >= 0 { slot(previous).pointee.next = next } else { head = next }
                if next < 0 { tail = previous }
                release(index)
            } else {
                previous = index
            }
            index = next
        }
        guard heap.unordered.contains(where: { isDead($0.slot) }) else { return }
        heap = Heap(
            heap.unordered.filter { key in
                guard isDead(key.slot) else { return true }
                release(key.slot)
                return false
            })
    }

    /// Frees a dropped entry's slot, giving back its work's reference.
    private func release(_ index: Int32) {
        takePayload(index).work?.release()
        free(index)
        count -= 1
    }

    /// Takes every queued entry out (what the caller releases or cancels), live or not.
    func removeAll() -> [Entry] {
        var all: [Entry] = []
        while let first = earliest {
            unlink(first)
            all.append(take(first.slot))
        }
        return all
    }
}
