#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Formats numbers and fixed words into a stack-sized buffer and writes it to standard error: what a signal handler
/// may do.
struct SignalSafeWriter {
    private var buffer = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
    private var buffered = 0

    /// "); replay it: replay(seed: …, strategy: …)" for a seeded strategy.
    private mutating func replayLine(_ slot: CrashNote.Slot) {
        text(")\nexplorer: replay it: replay(seed: ")
        hex(slot.seed)
        text(", strategy: ")
        spelling(slot.strategy)
        text(")")
    }

    /// The strategy's spelling, as the slot holds it.
    private mutating func spelling(_ spelling: CrashNote.SpellingBytes) {
        var copy = spelling.bytes
        withUnsafeBytes(of: &copy) { raw in
            for index in 0..<spelling.count { byte(raw[index]) }
        }
    }

    mutating func note(_ slot: CrashNote.Slot, signal: Int32) {
        text("\n")
        text(CrashNoteText.dying)
        number(Int64(signal))
        // Numbered as a person counts schedules, from 1 (the index, from 0, plus one).
        text(" in schedule ")
        number(slot.index + 1)
        text(" of ")
        number(slot.of)
        text(" (seed ")
        hex(slot.seed)
        if slot.systematic {
            // A systematic schedule is named by its choices, which a signal handler cannot print whole; the walk is
            // the same every run, so the same exploration reaches it again at the same index.
            text(")\nexplorer: replay it: explore again with strategy: ")
            spelling(slot.strategy)
            text("; this is schedule ")
            number(slot.index + 1)
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

/// The fixed words of a crash note that ``ExplorationFailure/init(crashNote:strategies:)`` finds its lines by.
/// The signal handler writes these very words. Computed, not stored: a stored global is initialised lazily, through
/// a lock a signal handler must not take.
enum CrashNoteText {
    static var dying: StaticString { "explorer: the process is dying of signal " }
    static var lastSteps: StaticString { "explorer: its last steps:" }
}
