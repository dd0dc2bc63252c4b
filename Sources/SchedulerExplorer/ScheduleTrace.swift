import SchedulerKit

/// The steps of one schedule, kept as values and written out only for a failure (a passing schedule costs no text).
struct ScheduleTrace {
    enum Event {
        /// A job ran: its step, its task's number, what it was, the strategy's choice among the ready ones, and
        /// where it came from if outside.
        case step(Int, task: Int, what: String, chosen: Int, of: Int, outside: String?)
        case clock(from: SchedulerTime, to: SchedulerTime)
        case skipped(Int, task: Int)
    }

    private(set) var events: [Event] = []

    mutating func record(_ event: Event) { events.append(event) }

    /// One line per event; no addresses or real times, so a replay writes the same bytes.
    func render(lastSteps: Int = 200) -> String {
        let shown = events.suffix(lastSteps)
        var lines = shown.count < events.count ? ["  … \(events.count - shown.count) earlier events left out"] : []
        for event in shown {
            switch event {
            case .step(let step, let task, let what, let chosen, let of, let outside):
                let choice = of > 1 ? "  (\(chosen + 1) of \(of) ready)" : ""
                lines.append("  \(pad(step)) t\(task) \(what)\(choice)" + (outside.map { ", from \($0)" } ?? ""))
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
