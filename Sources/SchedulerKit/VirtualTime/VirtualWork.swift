/// One queued entry of a virtual-time engine: a one-shot task or a repeating tick, as one unmanaged reference with
/// tag bits, so that the queue moves one word of plain bits without reference counting or value witnesses.
///
/// Ownership: the queue holds one retain per entry, taken by `once(_:timed:)` or `tick(_:)` and given back
/// exactly once, by `take()` when the entry is popped, or by `release()` when a purge or the engine's end drops it.
@_spi(Explorer) public struct VirtualWork {
    private let bits: UInt
    /// Set for a repeating tick; heap objects are at least 8-byte aligned, so the low three bits are free.
    private static let tickTag: UInt = 1
    /// Set for one-shot work scheduled for a deadline (a sleeper's wake-up) rather than for now.
    private static let timedTag: UInt = 2
    private static let tags: UInt = 3

    static func once(_ task: ScheduledWork, timed: Bool) -> VirtualWork {
        VirtualWork(bits: UInt(bitPattern: Unmanaged.passRetained(task).toOpaque()) | (timed ? timedTag : 0))
    }

    static func tick(_ tick: VirtualTick) -> VirtualWork {
        VirtualWork(bits: UInt(bitPattern: Unmanaged.passRetained(tick).toOpaque()) | tickTag)
    }

    enum Owned {
        case once(ScheduledWork)
        case tick(VirtualTick)
    }

    private var address: UnsafeRawPointer { UnsafeRawPointer(bitPattern: bits & ~Self.tags)! }
    /// The queued object's address: the same number as `ObjectIdentifier` of the `ScheduledWork` it was made from.
    public var identity: UInt { bits & ~Self.tags }
    public var isTick: Bool { bits & Self.tickTag != 0 }
    public var isTimed: Bool { bits & Self.timedTag != 0 }

    /// Takes the queue's reference back; call once per entry.
    func take() -> Owned {
        isTick
            ? .tick(Unmanaged<VirtualTick>.fromOpaque(address).takeRetainedValue())
            : .once(Unmanaged<ScheduledWork>.fromOpaque(address).takeRetainedValue())
    }

    /// Gives the queue's reference back without running anything.
    func release() { _ = take() }

    /// Gives the queue's reference back and cancels the work (an entry dropped unrun at the end of a schedule).
    func cancelAndRelease() {
        switch take() {
        case .once(let task): task.cancel()
        case .tick(let tick): tick.work.cancel()
        }
    }

    /// Reads the task's state through the queue's reference (still held: no retain needed).
    public var isDead: Bool {
        isTick
            ? Unmanaged<VirtualTick>.fromOpaque(address)._withUnsafeGuaranteedRef { $0.work.isCancelled }
            : Unmanaged<ScheduledWork>.fromOpaque(address)._withUnsafeGuaranteedRef { $0.isCancelled }
    }
}

/// One repeating task: allocated once, queued again for each tick, always with its first tick's sequence number,
/// so that equal ticks run in the order their repetitions were created.
final class VirtualTick: Sendable {
    let work: RepeatingWork
    let interval: Duration
    let sequence: UInt64

    init(work: RepeatingWork, interval: Duration, sequence: UInt64) {
        self.work = work
        self.interval = interval
        self.sequence = sequence
    }
}
