// The engine's state under its lock, and the strategy hook: what `VirtualTimeEngine` mutates and whom it asks.

extension VirtualTimeEngine.State {
    /// Queues `work` with the sequence already taken: ready at once, numbered by `chooser`, when a strategy chooses
    /// and it is due now.
    mutating func insert(
        _ work: VirtualWork, at due: SchedulerTime, sequence: UInt64, carried: ScheduledWork.Carried,
        noting chooser: (any ReadyWorkChooser)?
    ) {
        if ready != nil, due <= now {
            let note = chooser!.note(carried)
            ready!.append(ReadyList.Item(deadline: due, sequence: sequence, work: work, carried: carried, note: note))
        } else {
            if carried != .closure { carriedLater[sequence] = carried }
            queue.insert(.init(work: work), at: due, sequence: sequence)
        }
    }

    /// An entry of the queue as it becomes ready, numbered by `chooser` (where a strategy chooses, every entry is a
    /// node or a tick).
    mutating func readyItem(_ entry: VirtualQueue.Entry, noting chooser: any ReadyWorkChooser) -> ReadyList.Item {
        guard let work = entry.payload.work else { preconditionFailure("a closure queued where a strategy chooses") }
        let carried = (carriedLater.isEmpty ? nil : carriedLater.removeValue(forKey: entry.sequence)) ?? .closure
        return ReadyList.Item(
            deadline: entry.deadline, sequence: entry.sequence, work: work, carried: carried,
            note: chooser.note(carried))
    }

    /// The earliest live entry of the queue if it is due by `limit`; cancelled ones met first are dropped, so
    /// they never move the clock (whether reached here or purged earlier, the final `now` is the same).
    mutating func popLive(dueBy limit: SchedulerTime) -> VirtualQueue.Entry? {
        queue.popLive(dueBy: limit) { sequence in forget(sequence) }
    }

    /// The next batch of entries due by `limit` (``VirtualQueue/takeBatch``), cancelled ones met dropped.
    @inline(__always)
    mutating func takeBatch(dueBy limit: SchedulerTime, atMost maxCount: Int) -> (count: Int, due: SchedulerTime)? {
        queue.takeBatch(dueBy: limit, atMost: maxCount) { sequence in forget(sequence) }
    }

    /// Drops what was kept aside for a dropped entry.
    private mutating func forget(_ sequence: UInt64) {
        if !origins.isEmpty { origins.removeValue(forKey: sequence) }
        if !carriedLater.isEmpty { carriedLater.removeValue(forKey: sequence) }
    }
}

/// How a virtual-time engine that chooses among ready work asks which entry runs next (the explorer's strategies).
@_spi(Explorer) public protocol ReadyWorkChooser: AnyObject, Sendable {
    /// The position, in `ready` (never empty), of the entry to run at `step` (counted from 1). Called with the
    /// engine's state lock held, by the driving thread: entries from `ready.endPosition` of the last call on are new.
    func choose(in ready: inout ReadyList, step: Int) -> Int
    /// The chooser's number for an entry carried by `carried` (the explorer's task number), asked as the entry
    /// becomes ready: with the state lock held, in the order entries become ready.
    func note(_ carried: ScheduledWork.Carried) -> Int
}
