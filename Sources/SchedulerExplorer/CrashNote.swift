import SchedulerKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a schedule leaves for a crash: when the process dies of a trap, an abort or a fault while a schedule runs (a
/// continuation resumed twice, a force-unwrapped nil in the code under test), a signal handler writes each running
/// schedule's seed, its replay line and its last steps to standard error before the process goes on dying as it
/// would have. So a crash keeps its seed, as a thrown error does.
///
/// Async-signal-safe by construction: every schedule records into memory allocated before it starts (a fixed header
/// of numbers and a ring of fixed-size step records), and the handler formats those numbers itself into a stack
/// buffer and writes them with `write(2)`: no allocation, no lock, no Swift string. Up to `slotCount` schedules
/// (explorations running side by side in one test process) are noted at once; a schedule that finds no free slot
/// runs unnoted.
enum CrashNote {
    static let slotCount = 16
    /// Steps kept per schedule: the last ones, since a crash is at the end.
    static let ringSize = 256

    /// One step as the trace prints it, in numbers only.
    struct Record {
        /// 0: a job ran; 1: the clock moved; 2: a cancelled job was skipped.
        var kind: Int32 = 0
        /// 0 task, 1 actor, 2 work, 3 timer, 4 tick; for the clock, unused.
        var what: Int32 = 0
        var step: Int64 = 0
        var task: Int64 = 0
        /// The choice (for the clock: from, in nanoseconds).
        var chosen: Int64 = 0
        /// Among how many (for the clock: to, in nanoseconds).
        var of: Int64 = 0
        var outside: Int32 = 0
    }

    /// One running schedule's note. `inUse` is the only field another thread reads while it changes (the handler).
    /// Its strategy is its spelling's bytes (``StrategySpelling``), written when the slot is claimed: text a signal
    /// handler can write without formatting anything.
    struct Slot {
        var inUse: Int32 = 0
        var index: Int64 = 0
        var of: Int64 = 0
        var seed: UInt64 = 0
        /// Whether the schedule is named by its choices (a systematic strategy's), not its seed.
        var systematic = false
        var strategy = SpellingBytes()
        /// Records written so far; the ring holds the last `ringSize`.
        var recorded: Int64 = 0
        var ring: UnsafeMutablePointer<Record>? = nil
    }

    /// A strategy's spelling as bytes, cut at `capacity`.
    struct SpellingBytes {
        static let capacity = 96
        var bytes = (
            UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0),
            UInt64(0), UInt64(0), UInt64(0)
        )
        var count = 0

        init() {}

        init(_ text: String) {
            let utf8 = Array(text.utf8.prefix(Self.capacity))
            withUnsafeMutableBytes(of: &bytes) { raw in
                for (index, byte) in utf8.enumerated() { raw[index] = byte }
            }
            count = utf8.count
        }
    }

    // nonisolated(unsafe): allocated once and never freed; a slot is claimed and released only under `claims`, and
    // written between by the one thread that claimed it; the signal handler only reads (a torn last record at worst).
    nonisolated(unsafe) static let slots: UnsafeMutablePointer<Slot> = {
        let slots = UnsafeMutablePointer<Slot>.allocate(capacity: slotCount)
        slots.initialize(repeating: Slot(), count: slotCount)
        for index in 0..<slotCount {
            slots[index].ring = .allocate(capacity: ringSize)
            slots[index].ring!.initialize(repeating: Record(), count: ringSize)
        }
        return slots
    }()
    private static let claims = Locked(0)

    /// The signals a crash arrives as: a Swift trap (SIGILL on x86-64, SIGTRAP on arm64), `abort`, and faults.
    static let signals: [Int32] = [SIGABRT, SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE]
    nonisolated(unsafe) static let previousActions: UnsafeMutablePointer<sigaction> = {
        let actions = UnsafeMutablePointer<sigaction>.allocate(capacity: 32)
        actions.initialize(repeating: sigaction(), count: 32)
        return actions
    }()

    /// Installs the handler once per process, keeping each signal's previous action to pass the signal on to.
    private static let installed: Bool = {
        _ = slots
        for signal in signals {
            var action = sigaction()
            #if canImport(Glibc)
                action.__sigaction_handler.sa_handler = crashNoteHandler
            #else
                action.__sigaction_u.__sa_handler = crashNoteHandler
            #endif
            action.sa_flags = 0
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, previousActions + Int(signal))
        }
        return true
    }()

    /// A slot for a schedule, or nil when every one is taken.
    static func claim(index: Int, of: Int, seed: UInt64, strategy: ExplorationStrategy) -> Int? {
        _ = installed
        let slot = claims.withLock { _ -> Int? in
            guard let free = (0..<slotCount).first(where: { slots[$0].inUse == 0 }) else { return nil }
            slots[free].inUse = 1
            return free
        }
        guard let slot else { return nil }
        slots[slot].index = Int64(index)
        slots[slot].of = Int64(of)
        slots[slot].seed = seed
        slots[slot].recorded = 0
        slots[slot].systematic = strategy.isSystematic
        slots[slot].strategy = SpellingBytes(strategy.spelling.description)
        return slot
    }

    static func release(_ slot: Int) {
        claims.withLock { _ in slots[slot].inUse = 0 }
    }

    static func record(_ record: Record, in slot: Int) {
        let recorded = slots[slot].recorded
        slots[slot].ring![Int(recorded % Int64(ringSize))] = record
        slots[slot].recorded = recorded + 1
    }
}

/// The handler: the notes of every running schedule, then the signal goes on to whoever had it before (by default,
/// the process dies of it).
private func crashNoteHandler(_ signal: Int32) {
    var writer = SignalSafeWriter()
    for index in 0..<CrashNote.slotCount where CrashNote.slots[index].inUse != 0 {
        writer.note(CrashNote.slots[index], signal: signal)
    }
    sigaction(signal, CrashNote.previousActions + Int(signal), nil)
    raise(signal)
}
