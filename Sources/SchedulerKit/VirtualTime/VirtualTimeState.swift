// The engine's state under its lock, and the strategy hook: what `VirtualTimeEngine` mutates and whom it asks.

extension VirtualTimeEngine.State {
    /// Queues `work` with the sequence already taken: ready at once when a strategy chooses and it is due now.
    mutating func insert(_ work: VirtualWork, at due: SchedulerTime, sequence: UInt64, carried: ScheduledWork.Carried) {
        if ready != nil, due <= now {
            ready!.append(ReadyList.Item(deadline: due, sequence: sequence, work: work, carried: carried))
        } else {
            if carried != .closure { carriedLater[sequence] = carried }
            timers.insert(work, at: due, sequence: sequence)
        }
    }

    /// An entry of the timers as it becomes ready.
    mutating func readyItem(_ entry: TimerQueue<VirtualWork>.Entry) -> ReadyList.Item {
        let carried = carriedLater.isEmpty ? nil : carriedLater.removeValue(forKey: entry.sequence)
        return ReadyList.Item(
            deadline: entry.deadline, sequence: entry.sequence, work: entry.payload, carried: carried ?? .closure)
    }

    /// The earliest live entry of the timers if it is due by `limit`; cancelled ones met first are dropped, so
    /// they never move the clock (whether reached here or purged earlier, the final `now` is the same).
    mutating func popLive(dueBy limit: SchedulerTime) -> TimerQueue<VirtualWork>.Entry? {
        while let entry = timers.popDue(at: limit) {
            guard entry.payload.isDead else { return entry }
            origins.removeValue(forKey: entry.sequence)
            carriedLater.removeValue(forKey: entry.sequence)
            entry.payload.release()
        }
        return nil
    }
}

/// How a virtual-time engine that chooses among ready work asks which entry runs next (the explorer's strategies).
@_spi(Explorer) public protocol ReadyWorkChooser: AnyObject, Sendable {
    /// The position, in `ready` (never empty), of the entry to run at `step` (counted from 1). Called with the
    /// engine's state lock held, by the driving thread: entries from `ready.endPosition` of the last call on are new.
    func choose(in ready: inout ReadyList, step: Int) -> Int
}
