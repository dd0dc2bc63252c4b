import SchedulerKit

/// The steps of one schedule, kept as values and written out only for a failure (a passing schedule costs no text).
struct ScheduleTrace {
    enum Event {
        /// A job ran: its step, its task's number, what it was, the strategy's choice among the ready ones, and
        /// where it came from if outside.
        case step(Int, task: Int, what: What, chosen: Int, of: Int, outside: String?)
        case clock(from: SchedulerTime, to: SchedulerTime)
        case skipped(Int, task: Int)
    }

    /// What a job was.
    enum What: Int32 {
        case task, actor, work, timer, tick, runtime
        var name: String {
            switch self {
            case .runtime: "runtime job"
            default: "\(self)"
            }
        }
    }

    private(set) var events: [Event] = []
    /// The schedule's crash note, if it has one (``CrashNote``): every event is noted there too, in numbers.
    let crashSlot: Int?

    init(crashSlot: Int? = nil) { self.crashSlot = crashSlot }

    mutating func record(_ event: Event) {
        events.append(event)
        guard let crashSlot else { return }
        var note = CrashNote.Record()
        switch event {
        case .step(let step, let task, let what, let chosen, let of, let outside):
            note.what = what.rawValue
            (note.step, note.task, note.chosen, note.of) = (Int64(step), Int64(task), Int64(chosen), Int64(of))
            note.outside = outside == nil ? 0 : 1
        case .clock(let from, let to):
            note.kind = 1
            (note.chosen, note.of) = (from.nanoseconds, to.nanoseconds)
        case .skipped(let step, let task):
            note.kind = 2
            (note.step, note.task) = (Int64(step), Int64(task))
        }
        CrashNote.record(note, in: crashSlot)
    }

    /// One line per event; no addresses or real times, so a replay writes the same bytes. A task with a name
    /// (`Task(name:)`) is shown with it: `t3 'fetch'`.
    func render(lastSteps: Int = 200, names: [Int: String] = [:]) -> String {
        let shown = events.suffix(lastSteps)
        var lines = shown.count < events.count ? ["  … \(events.count - shown.count) earlier events left out"] : []
        for event in shown {
            switch event {
            case .step(let step, let task, let what, let chosen, let of, let outside):
                let choice = of > 1 ? "  (\(chosen + 1) of \(of) ready)" : ""
                let named = names[task].map { " '\($0)'" } ?? ""
                lines.append(
                    "  \(pad(step)) t\(task)\(named) \(what.name)\(choice)" + (outside.map { ", from \($0)" } ?? ""))
            case .clock(let from, let to):
                lines.append("  \(pad(nil)) clock \(seconds(from)) → \(seconds(to))")
            case .skipped(let step, let task):
                lines.append("  \(pad(step)) t\(task) cancelled, skipped")
            }
        }
        return lines.joined(separator: "\n")
    }

    private func pad(_ step: Int?) -> String {
        let text = step.map(String.init) ?? ""
        return String(repeating: " ", count: max(0, 5 - text.count)) + text
    }

    private func seconds(_ time: SchedulerTime) -> String { "\(Double(time.nanoseconds) / 1e9) s" }
}
