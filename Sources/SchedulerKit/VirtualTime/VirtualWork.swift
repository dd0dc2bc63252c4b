/// One queued entry of a virtual-time engine: a one-shot task or a repeating tick, as one unmanaged reference with
/// tag bits, so that the queue moves plain bits without reference counting or value witnesses; and what its owner
/// knows of it (the explorer: which task's job it carries).
///
/// Ownership: the queue holds one retain per entry, taken by ``once(_:timed:carried:)`` or `tick(_:)` and given back
/// exactly once, by `take()` when the entry is popped, or by `release()` when a purge or the engine's end drops it.
@_spi(Explorer) public struct VirtualWork {
    private let bits: UInt
    /// What carried the work and its task's id, read when it was queued (a job can be read only until it runs): the
    /// kind in the top two bits, the id below (task ids count up from 1 and never come near 2⁶²). One word, so an
    /// entry of the timer queue stays four words.
    private let mark: UInt64
    private static let kindShift: UInt64 = 62

    /// What carried the work, and its task's id.
    public var carried: ScheduledWork.Carried {
        let task = mark & ((1 << Self.kindShift) - 1)
        switch mark >> Self.kindShift {
        case 1: return .actorJob(task: task)
        case 2: return .taskJob(task: task)
        default: return .closure
        }
    }

    private init(bits: UInt, carried: ScheduledWork.Carried) {
        self.bits = bits
        switch carried {
        case .closure: mark = 0
        case .actorJob(let task): mark = 1 << Self.kindShift | task & ((1 << Self.kindShift) - 1)
        case .taskJob(let task): mark = 2 << Self.kindShift | task & ((1 << Self.kindShift) - 1)
        }
    }

    /// Set for a repeating tick; heap objects are at least 8-byte aligned, so the low three bits are free.
    private static let tickTag: UInt = 1
    /// Set for one-shot work scheduled for a deadline (a sleeper's wake-up) rather than for now.
    private static let timedTag: UInt = 2
    private static let tags: UInt = 3

    static func once(_ task: ScheduledWork, timed: Bool, carried: ScheduledWork.Carried = .closure) -> VirtualWork {
        VirtualWork(
            bits: UInt(bitPattern: Unmanaged.passRetained(task).toOpaque()) | (timed ? timedTag : 0),
            carried: carried)
    }

    static func tick(_ tick: VirtualTick) -> VirtualWork {
        VirtualWork(bits: UInt(bitPattern: Unmanaged.passRetained(tick).toOpaque()) | tickTag, carried: .closure)
    }

    enum Owned {
        case once(ScheduledWork)
        case tick(VirtualTick)
    }

    private var address: UnsafeRawPointer { UnsafeRawPointer(bitPattern: bits & ~Self.tags)! }
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
