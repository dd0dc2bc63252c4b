import SchedulerConformance
import SchedulerKit

/// A third party's virtual-time scheduler: nothing runs until a test drives it, and its clock moves only to the due
/// time of the work it runs or to where an advance takes it. It conforms to SchedulerKit's `VirtualTimeDriver`, which is
/// how the kit's rules and the bench's workloads drive it (the bench drains it after submitting, as it does
/// `TestScheduler`), with SchedulerKit's public API only.
public final class StepScheduler: TimedScheduler, VirtualTimeDriver {
    public static let traits: SchedulerTraits = [.serial, .timed, .repeating, .fixedRate, .virtualTime, .setsCurrent]
    public var traits: SchedulerTraits { Self.traits }
    public let name: String

    /// Queued work in (due, submission) order; `first` is the next to leave. Work submitted at the current time,
    /// the common case, lands at the end without a search.
    private struct Queue {
        var now = SchedulerTime.zero
        var entries: [Entry] = []
        var first = 0
        var submitted = 0

        mutating func insert(_ kind: Entry.Kind, at due: SchedulerTime) {
            submitted += 1
            let entry = Entry(due: max(due, now), sequence: submitted, kind: kind)
            if entries.count == first || entries[entries.count - 1].due <= entry.due {
                entries.append(entry)
                return
            }
            var (low, high) = (first, entries.count)
            while low < high {
                let middle = (low + high) / 2
                if entries[middle].due <= entry.due { low = middle + 1 } else { high = middle }
            }
            entries.insert(entry, at: low)
        }

        /// The next entry due by `limit`, taken out, with the clock moved to its due time.
        mutating func takeNext(dueBy limit: SchedulerTime) -> Entry? {
            guard first < entries.count, entries[first].due <= limit else { return nil }
            let entry = entries[first]
            first += 1
            if first == entries.count {
                entries.removeAll(keepingCapacity: true)
                first = 0
            } else if first > 1_024 && first * 2 > entries.count {
                entries.removeFirst(first)
                first = 0
            }
            now = max(now, entry.due)
            return entry
        }
    }

    private struct Entry {
        enum Kind {
            case once(QueueWork)
            case tick(RepeatingWork, every: Duration)
        }
        let due: SchedulerTime
        let sequence: Int
        let kind: Kind
    }

    private let queue = Locked(Queue())
    /// Held while a driver runs work, so that two drivers never run this serial scheduler's work at once. (It guards a
    /// flag rather than nothing: ThreadSanitizer reported the inout access of an empty value at the lock object's own
    /// address as racing with a read of that address, in a run of the kit on this scheduler.)
    private let driver = Locked(false)

    public init(name: String) { self.name = name }

    public var now: SchedulerTime { queue.withLock { $0.now } }

    @discardableResult
    public func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        schedule(at: .zero, work)
    }

    @discardableResult
    public func schedule(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let handle = QueueWork(work)
        queue.withLock { $0.insert(.once(handle), at: deadline) }
        return handle
    }

    @discardableResult
    public func schedule(
        at start: SchedulerTime, every interval: Duration, leeway: Duration, _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        precondition(interval > .zero, "schedule(at:every:): the interval must be positive, got \(interval)")
        let handle = RepeatingWork(work)
        queue.withLock { $0.insert(.tick(handle, every: interval), at: start) }
        return handle
    }

    public func advance(by duration: Duration) { advance(to: now.advanced(by: duration)) }

    public func advance(to target: SchedulerTime) {
        drive {
            while runNext(dueBy: target) != nil {}
            queue.withLock { $0.now = max($0.now, target) }
        }
    }

    @discardableResult
    public func step() -> Bool {
        drive {
            while let ran = runNext(dueBy: .distantFuture) {
                if ran { return true }
            }
            return false
        }
    }

    @discardableResult
    public func run(maxSteps: Int) -> VirtualTimeRunOutcome {
        drive {
            var steps = 0
            while steps < maxSteps, let ran = runNext(dueBy: .distantFuture) {
                if ran { steps += 1 }
            }
            let pending = queue.withLock { $0.entries.count - $0.first }
            return pending == 0 ? .drained(steps: steps) : .stoppedEarly(steps: steps, pending: pending)
        }
    }

    /// Takes the next entry due by `limit` and runs it as the current scheduler: nil when none is due, false when
    /// the entry had been cancelled (it does not count as a step).
    private func runNext(dueBy limit: SchedulerTime) -> Bool? {
        guard let entry = queue.withLock({ $0.takeNext(dueBy: limit) }) else { return nil }
        switch entry.kind {
        case .once(let handle):
            guard let work = handle.start() else { return false }
            Schedulers.performAsCurrent(self, work)
            return true
        case .tick(let handle, let interval):
            let tick = Schedulers.performAsCurrent(self) { handle.runTick() }
            if tick.goesOn {
                queue.withLock { $0.insert(.tick(handle, every: interval), at: entry.due.advanced(by: interval)) }
            }
            return tick.ran
        }
    }

    private func drive<Result>(_ body: () -> Result) -> Result {
        precondition(Schedulers.current !== self, "StepScheduler \(name): driven from inside its own work")
        return driver.withLock { driving in
            driving = true
            defer { driving = false }
            return body()
        }
    }
}
