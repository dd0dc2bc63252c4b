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
    struct Slot {
        var inUse: Int32 = 0
        var index: Int64 = 0
        var of: Int64 = 0
        var seed: UInt64 = 0
        /// 0 first-in-first-out, 1 random, 2 PCT.
        var strategy: Int32 = 0
        var depth: Int64 = 0
        var steps: Int64 = 0
        /// Records written so far; the ring holds the last `ringSize`.
        var recorded: Int64 = 0
        var ring: UnsafeMutablePointer<Record>? = nil
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
        switch strategy {
        case .firstInFirstOut: slots[slot].strategy = 0
        case .random: slots[slot].strategy = 1
        case .pct(let depth, let steps):
            slots[slot].strategy = 2
            slots[slot].depth = Int64(depth)
            slots[slot].steps = Int64(steps)
        case .exhaustive(let preemptions):
            slots[slot].strategy = 3
            slots[slot].depth = Int64(preemptions)
        }
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

/// Formats numbers and fixed words into a stack-sized buffer and writes it to standard error: what a signal handler
/// may do.
private struct SignalSafeWriter {
    private var buffer = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
    private var buffered = 0

    /// "); replay it: replay(seed: …, strategy: …)" for a seeded strategy.
    private mutating func replayLine(_ slot: CrashNote.Slot) {
        text(")\nexplorer: replay it: replay(seed: ")
        hex(slot.seed)
        text(", strategy: ")
        switch slot.strategy {
        case 0: text(".firstInFirstOut")
        case 1: text(".random")
        default:
            text(".pct(depth: ")
            number(slot.depth)
            text(", steps: ")
            number(slot.steps)
            text(")")
        }
        text(")")
    }

    mutating func note(_ slot: CrashNote.Slot, signal: Int32) {
        text("\n")
        text(CrashNoteText.dying)
        number(Int64(signal))
        text(" in schedule ")
        number(slot.index)
        text(" of ")
        number(slot.of)
        text(" (seed ")
        hex(slot.seed)
        if slot.strategy == 3 {
            // An exhaustive schedule is named by its choices, which a signal handler cannot print whole; the walk is
            // the same every run, so the same exploration reaches it again at the same index.
            text(")\nexplorer: replay it: explore again with strategy: .exhaustive(preemptions: ")
            number(slot.depth)
            text("); this is schedule ")
            number(slot.index)
            text(" of its walk")
        } else {
            replayLine(slot)
        }
        text("\n")
        text(CrashNoteText.lastSteps)
        text("\n")
        let first = max(0, slot.recorded - Int64(CrashNote.ringSize))
        if first > 0 {
            text("  … ")
            number(first)
            text(" earlier steps left out\n")
        }
        var index = first
        while index < slot.recorded {
            line(slot.ring![Int(index % Int64(CrashNote.ringSize))])
            index += 1
        }
        flush()
    }

    private mutating func line(_ record: CrashNote.Record) {
        switch record.kind {
        case 1:
            text("        clock ")
            seconds(record.chosen)
            text(" → ")
            seconds(record.of)
        default:
            text("  ")
            padded(record.step)
            text(" t")
            number(record.task)
            if record.kind == 2 {
                text(" cancelled, skipped")
            } else {
                switch record.what {
                case 0: text(" task")
                case 1: text(" actor")
                case 2: text(" work")
                case 3: text(" timer")
                default: text(" tick")
                }
                if record.of > 1 {
                    text("  (")
                    number(record.chosen + 1)
                    text(" of ")
                    number(record.of)
                    text(" ready)")
                }
                if record.outside != 0 { text(", from outside") }
            }
        }
        text("\n")
    }

    private mutating func padded(_ value: Int64) {
        var width = 1
        var rest = value / 10
        while rest > 0 {
            width += 1
            rest /= 10
        }
        for _ in width..<max(width, 5) { byte(0x20) }
        number(value)
    }

    private mutating func seconds(_ nanoseconds: Int64) {
        number(nanoseconds / 1_000_000_000)
        byte(0x2E)
        let fraction = nanoseconds % 1_000_000_000
        var power: Int64 = 100_000_000
        while power > 0 {
            byte(UInt8(0x30 + fraction / power % 10))
            power /= 10
        }
        text(" s")
    }

    private mutating func number(_ value: Int64) {
        if value < 0 {
            byte(0x2D)
            number(-value)
            return
        }
        if value >= 10 { number(value / 10) }
        byte(UInt8(0x30 + value % 10))
    }

    private mutating func hex(_ value: UInt64) {
        text("0x")
        var started = false
        for shift in stride(from: 60, through: 0, by: -4) {
            let digit = UInt8((value >> UInt64(shift)) & 0xF)
            if digit != 0 || started || shift == 0 {
                started = true
                byte(digit < 10 ? 0x30 + digit : 0x41 + digit - 10)
            }
        }
    }

    /// A literal's bytes: static strings are stored in the binary, so reading them allocates nothing.
    private mutating func text(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes in
            for value in bytes { byte(value) }
        }
    }

    private mutating func byte(_ value: UInt8) {
        if buffered == 64 { flush() }
        withUnsafeMutableBytes(of: &buffer) { $0[buffered] = value }
        buffered += 1
    }

    mutating func flush() {
        let count = buffered
        withUnsafeBytes(of: &buffer) { raw in _ = write(2, raw.baseAddress, count) }
        buffered = 0
    }
}
