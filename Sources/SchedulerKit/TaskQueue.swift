import Synchronization

/// A multi-producer, single-consumer FIFO of task nodes, linked through the nodes themselves (Vyukov's intrusive
/// queue), plus the flag that says who owns the right to consume it.
///
/// `push` is one atomic exchange, one store and (when the queue was idle) one compare-and-swap: no lock and no
/// allocation, so producers never contend with the worker that drains the queue. Ownership: `push` returns true to
/// the one producer that took the idle queue, which must then hand it to a worker; the owner alone calls `pop`,
/// and gives ownership back with `relinquish`, which takes it again if work arrived meanwhile. The flag and the tail
/// are sequentially consistent, so a push racing a relinquish is never lost: one of the two sees the other.
/// The queue holds a +1 reference on every node in it.
// @unchecked Sendable: `head` is touched only by the current owner (ownership passes through the atomic `owned`
// flag, which orders those accesses); `tail`, `owned` and the nodes' links are atomics.
/// Exposed to the bench only (SPI `Bench`), for its hand-off floor reference.
@_spi(Bench) public final class TaskQueue: @unchecked Sendable {
    private let stub = ScheduledWork.makeFinished()
    /// Unchecked: only the owner touches it (see above), so the runtime exclusivity check would only cost time.
    @exclusivity(unchecked) private var head: Unmanaged<ScheduledWork>
    private let tail: Atomic<Unmanaged<ScheduledWork>>
    private let owned = Atomic<Bool>(false)

    public init() {
        let stubReference = Unmanaged.passUnretained(stub)
        head = stubReference
        tail = Atomic(stubReference)
    }

    deinit {
        while pop() != nil {}
    }

    /// Any thread. Appends `node`; returns true if the caller now owns the queue and must get it consumed.
    public func push(_ node: ScheduledWork) -> Bool {
        link(Unmanaged.passRetained(node))
        return !owned.load(ordering: .sequentiallyConsistent)
            && owned.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged
    }

    private func link(_ node: Unmanaged<ScheduledWork>) {
        node.takeUnretainedValue().queueNext.store(nil, ordering: .relaxed)
        let previous = tail.exchange(node, ordering: .sequentiallyConsistent)
        previous.takeUnretainedValue().queueNext.store(node, ordering: .releasing)
    }

    /// Owner only. The oldest node, or nil if the queue is empty or a push is still linking.
    public func pop() -> ScheduledWork? {
        var first = head
        var next = first.takeUnretainedValue().queueNext.load(ordering: .acquiring)
        if first.toOpaque() == stubPointer {
            guard let afterStub = next else { return nil }
            head = afterStub
            first = afterStub
            next = afterStub.takeUnretainedValue().queueNext.load(ordering: .acquiring)
        }
        if let next {
            head = next
            return first.takeRetainedValue()
        }
        // `first` is the last linked node: put the stub behind it so that it can be handed out.
        guard tail.load(ordering: .sequentiallyConsistent).toOpaque() == first.toOpaque() else { return nil }
        link(Unmanaged.passUnretained(stub))
        guard let afterFirst = first.takeUnretainedValue().queueNext.load(ordering: .acquiring) else { return nil }
        head = afterFirst
        return first.takeRetainedValue()
    }

    /// Any thread. The newest node in the queue (as an address, never dereferenced): the owner can stop a turn
    /// once it has popped it, so work pushed during the turn waits for the next one.
    var newest: UnsafeMutableRawPointer { tail.load(ordering: .acquiring).toOpaque() }

    /// Owner only. Gives ownership back; returns true if work had arrived, in which case the caller owns it again.
    func relinquish() -> Bool {
        let drained = head.toOpaque() == stubPointer
        owned.store(false, ordering: .sequentiallyConsistent)
        let pending =
            !drained
            || tail.load(ordering: .sequentiallyConsistent).toOpaque() != stubPointer
            || stub.queueNext.load(ordering: .acquiring) != nil
        return pending
            && owned.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged
    }

    private var stubPointer: UnsafeMutableRawPointer { Unmanaged.passUnretained(stub).toOpaque() }
}
