/// The handle of a closure scheduled on a first-in-first-out virtual-time engine (`TestScheduler`'s): a value of
/// three words (its ledger, the task's sequence number and its slot), which `any Cancellable` stores inline, so
/// returning it allocates nothing. `cancel()` goes through the engine's lock to the slot, and acts only while the
/// slot still holds the task of that sequence number: a stale handle (the slot reused by a later task) never cancels
/// the later one. The answer of `isCancelled` outlives the slot, in the ledger.
struct VirtualTaskHandle: Cancellable {
    let ledger: VirtualTaskLedger
    let sequence: UInt64
    let slot: Int32

    @discardableResult
    func cancel() -> Bool { ledger.cancel(slot: slot, sequence: sequence) }

    var isCancelled: Bool { ledger.isCancelled(sequence) }
}

/// Which tasks of a run of consecutive sequence numbers were cancelled, for their handles: a handle keeps its ledger
/// alive, and the engine starts a new ledger every `span` sequence numbers, so what handles still held keep alive is
/// a bit per task of their ledgers' spans, and nothing when none is held. The engine's state lock guards the bits.
// @unchecked Sendable: `cancelled` is read and written only with `state`'s lock held; the rest is immutable.
final class VirtualTaskLedger: @unchecked Sendable {
    /// Sequence numbers per ledger.
    static let span: UInt64 = 4096

    let state: SpinLocked<VirtualTimeEngine.State>
    let base: UInt64
    /// Bit `i` of word `i / 64`: the task numbered `base + i` was cancelled. Allocated at the first cancel.
    @exclusivity(unchecked) private var cancelled: [UInt64] = []

    init(state: SpinLocked<VirtualTimeEngine.State>, base: UInt64) {
        self.state = state
        self.base = base
    }

    /// Whether `sequence` belongs to this ledger.
    @inline(__always)
    func covers(_ sequence: UInt64) -> Bool { sequence &- base < Self.span }

    func cancel(slot: Int32, sequence: UInt64) -> Bool {
        // The closure comes out of the lock with the outcome and is released after it: its captures' deinit may
        // call back into the scheduler.
        let outcome = state.withLock { state -> VirtualQueue.Cancelled in
            let outcome = state.queue.cancel(slot: slot, sequence: sequence)
            if case .stopped = outcome { markCancelled(sequence) }
            return outcome
        }
        if case .stopped = outcome { return true }
        return false
    }

    func isCancelled(_ sequence: UInt64) -> Bool {
        state.withLock { _ in
            let offset = Int(sequence - base)
            return offset / 64 < cancelled.count && cancelled[offset / 64] & (1 << UInt64(offset % 64)) != 0
        }
    }

    private func markCancelled(_ sequence: UInt64) {
        if cancelled.isEmpty { cancelled = Array(repeating: 0, count: Int(Self.span) / 64) }
        let offset = Int(sequence - base)
        cancelled[offset / 64] |= 1 << UInt64(offset % 64)
    }
}
