/// The work of a virtual-time engine that is due (at or before `now`), in the order it became ready, for a strategy
/// that chooses among it (the explorer's). Not thread-safe: the engine's lock guards it.
///
/// Each entry gets a *position* when it becomes ready, one more than the last, and keeps it until taken; its *rank*
/// is how many ready entries precede it. Taking any entry, finding the entry of a rank and the rank of an entry cost
/// O(log n) in the entries held (a Fenwick tree of ones over the positions): a strategy that picks at random or
/// by priority pays no more with 1 000 ready jobs than the logarithm says, where filtering and sorting a list would
/// pay n log n each step.
@_spi(Explorer) public struct ReadyList {
    /// One ready entry as a strategy sees it.
    public struct Item {
        public let deadline: SchedulerTime
        public let sequence: UInt64
        public let work: VirtualWork
        /// What carried the work, and its task's id, read when it was queued (a job can be read only until it runs).
        public let carried: ScheduledWork.Carried
        /// The strategy's own number for the entry (the explorer's task number), given as it becomes ready.
        public let note: Int
    }

    /// Slot `i` holds the entry of position `base + i`, nil once taken.
    private var slots: [Item?] = []
    /// Fenwick tree of 1 per held slot: node `i` (1-based, one per slot) at `tree[i - 1]`, so that an empty list
    /// allocates nothing.
    private var tree: [Int32] = []
    private var base = 0
    /// The slot of the entry of rank 0 while any is held (every slot before it is empty): the first-in-first-out
    /// choice and the compaction read it at no cost. It only moves forward between compactions, so keeping it is
    /// O(1) amortised per take.
    private var firstHeld = 0
    public private(set) var count = 0

    public init() {}

    public var isEmpty: Bool { count == 0 }
    /// The position the next entry will get: entries of positions from a strategy's last look up to this one are
    /// new to it.
    public var endPosition: Int { base + slots.count }

    public subscript(position: Int) -> Item? { slot(of: position).flatMap { slots[$0] } }

    /// The slot of `position`, nil when it is before the first slot kept or past the last.
    private func slot(of position: Int) -> Int? {
        let slot = position - base
        return slot >= 0 && slot < slots.count ? slot : nil
    }

    /// The strategy's number of the entry at `position`, nil once taken. Read in place: the subscript's copy of an
    /// entry counts a reference to its work, twice on every step a strategy takes.
    public func note(at position: Int) -> Int? { slot(of: position).flatMap { slots[$0]?.note } }

    /// The position of the entry of rank `rank` (0: the one that became ready first).
    public func position(ofRank rank: Int) -> Int {
        precondition(rank >= 0 && rank < count, "ReadyList: rank \(rank) of \(count)")
        if rank == 0 { return base + firstHeld }
        // Fenwick descent: the largest prefix holding at most `rank` entries ends just before the one sought. The
        // tree has a node per slot, so every index read is in bounds.
        let size = slots.count
        var index = 0
        var remaining = Int32(truncatingIfNeeded: rank)
        var step = 1 &<< (Int.bitWidth &- 1 &- size.leadingZeroBitCount)
        tree.withUnsafeBufferPointer { tree in
            while step > 0 {
                let next = index &+ step
                if next <= size && tree[next &- 1] <= remaining {
                    index = next
                    remaining &-= tree[next &- 1]
                }
                step &>>= 1
            }
        }
        return base + index
    }

    /// How many held entries precede `position`.
    public func rank(ofPosition position: Int) -> Int {
        position - base == firstHeld ? 0 : Int(prefix(position - base))
    }

    mutating func append(_ item: Item) {
        slots.append(item)
        let index = slots.count
        // A new last node covers (index - lowbit, index]: its own one plus the held entries already in that range.
        tree.append(1 + prefix(index - 1, after: index & (index - 1)))
        if count == 0 { firstHeld = index - 1 }
        count += 1
    }

    /// Takes the entry at `position`, which must be held.
    mutating func take(at position: Int) -> Item {
        let slot = position - base
        guard let item = slots[slot] else { preconditionFailure("ReadyList: position \(position) is not held") }
        slots[slot] = nil
        tree.withUnsafeMutableBufferPointer { tree in
            var index = slot &+ 1
            while index <= tree.count {
                tree[index &- 1] &-= 1
                index &+= index & -index
            }
        }
        count -= 1
        if slot == firstHeld {
            firstHeld += 1
            while firstHeld < slots.count, case .none = slots[firstHeld] { firstHeld += 1 }
            // Only a move of the first held entry (or the last taken) can make the list sparse enough.
            compactIfSparse()
        }
        return item
    }

    /// Every held entry, in position order, without taking any.
    var items: [Item] { slots.compactMap { $0 } }

    mutating func removeAll() -> [Item] {
        defer {
            base += slots.count
            slots.removeAll()
            tree.removeAll()
            count = 0
            firstHeld = 0
        }
        return slots.compactMap { $0 }
    }

    /// How many held entries are among the first `end` slots (`end` at most `slots.count`), past the first
    /// `start` when `start` is what clearing `end`'s low bits reaches (a node's own range).
    private func prefix(_ end: Int, after start: Int = 0) -> Int32 {
        tree.withUnsafeBufferPointer { tree in
            var index = end
            var sum: Int32 = 0
            while index > start {
                sum &+= tree[index &- 1]
                index &= index &- 1
            }
            return sum
        }
    }

    /// Drops the taken slots before the first held one once they are half the list, so a long exploration keeps a
    /// list the size of what is ready, not of everything that ever was: O(1) amortised per entry.
    private mutating func compactIfSparse() {
        guard slots.count >= 64 else {
            if count == 0 {
                base += slots.count
                slots.removeAll(keepingCapacity: true)
                tree.removeAll(keepingCapacity: true)
                firstHeld = 0
            }
            return
        }
        let leading = count == 0 ? slots.count : firstHeld
        guard leading * 2 >= slots.count else { return }
        base += leading
        firstHeld = 0
        slots.removeFirst(leading)
        // Rebuilt in place, in linear time: each node's ones, then each node adds itself into its parent.
        tree.removeLast(leading)
        tree.withUnsafeMutableBufferPointer { tree in
            for slot in 0..<tree.count { tree[slot] = slots[slot] == nil ? 0 : 1 }
            var index = 1
            while index <= tree.count {
                let parent = index &+ (index & -index)
                if parent <= tree.count { tree[parent &- 1] &+= tree[index &- 1] }
                index &+= 1
            }
        }
    }
}
