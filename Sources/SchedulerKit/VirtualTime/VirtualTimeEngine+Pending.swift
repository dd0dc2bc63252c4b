// What a virtual-time engine still holds, looked at without taking it: the explorer names the tasks a passing
// schedule left waiting (`ExplorationReport.tasksLeftRunning`).

extension VirtualTimeEngine {
    /// A live entry still queued: when it is due, what carried it, and the queued object's address.
    @_spi(Explorer) public struct PendingEntry: Sendable {
        public let deadline: SchedulerTime
        public let carried: ScheduledWork.Carried
        public let identity: UInt
        public let isTick: Bool
    }

    /// Every live entry still queued, earliest first, without taking any (what a schedule leaves when its body
    /// returned: the explorer names the tasks they belong to).
    @_spi(Explorer) public func pendingEntries() -> [PendingEntry] {
        state.withLock { state in
            let timers = state.queue.entries.filter { !$0.isDead }.map { entry in
                PendingEntry(
                    deadline: entry.deadline, carried: state.carriedLater[entry.sequence] ?? .closure,
                    identity: entry.work?.identity ?? 0, isTick: entry.work?.isTick ?? false)
            }
            let ready = (state.ready?.items ?? []).filter { !$0.work.isDead }.map { item in
                PendingEntry(
                    deadline: item.deadline, carried: item.carried, identity: item.work.identity,
                    isTick: item.work.isTick)
            }
            return (ready + timers).sorted { $0.deadline < $1.deadline }
        }
    }
}
