import SchedulerConformance
import SchedulerKit

/// Negative control for V: a virtual clock that runs tasks by due time but, among equal due times, newest first
/// (an unstable heap, as in RAC's test scheduler and swift-composable-architecture#94). With
/// `countsTicksThatEnd: false` it keeps ties in order and has another defect instead, the one SchedulerKit's own
/// `TestScheduler.step()` had: a repeating tick that cancels itself is not counted as the step, so the step runs a
/// second task. With `advancesBackwards: true` (and ties in order) its one defect is RxSwift's `advanceTo`: a target
/// in the past sets the clock back to it.
final class TieReversingVirtualClock: VirtualTimeDriver {
    let name = "tie-reversing"
    private let reversesTies: Bool
    private let countsTicksThatEnd: Bool
    private let advancesBackwards: Bool

    init(reversesTies: Bool = true, countsTicksThatEnd: Bool = true, advancesBackwards: Bool = false) {
        self.reversesTies = reversesTies
        self.countsTicksThatEnd = countsTicksThatEnd
        self.advancesBackwards = advancesBackwards
    }
    var traits: SchedulerTraits { [.serial, .timed, .repeating, .fixedRate, .virtualTime, .setsCurrent] }

    private enum Entry {
        case once(ScheduledWork)
        case tick(RepeatingWork, interval: Duration)
    }
    private struct State {
        var now = SchedulerTime.zero
        /// Distinct due times, latest first, so the earliest is popped from the end.
        var dues: [SchedulerTime] = []
        /// Per due time, a stack: the last one added runs first.
        var buckets: [SchedulerTime: [Entry]] = [:]

        mutating func insert(_ entry: Entry, at due: SchedulerTime) {
            if buckets[due] == nil {
                var low = 0
                var high = dues.count
                while low < high {
                    let middle = (low + high) / 2
                    if dues[middle] > due { low = middle + 1 } else { high = middle }
                }
                dues.insert(due, at: low)
            }
            buckets[due, default: []].append(entry)
        }

        mutating func popDue(by limit: SchedulerTime, newestFirst: Bool) -> (SchedulerTime, Entry)? {
            guard let due = dues.last, due <= limit, buckets[due]?.isEmpty == false else { return nil }
            let entry = newestFirst ? buckets[due]!.removeLast() : buckets[due]!.removeFirst()
            if buckets[due]!.isEmpty {
                buckets[due] = nil
                dues.removeLast()
            }
            now = max(now, due)
            return (due, entry)
        }
    }
    private let state = Locked(State())

    var now: SchedulerTime { state.withLock { $0.now } }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable { schedule(at: .zero, work) }

    func schedule(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let task = ScheduledWork(work)
        state.withLock { $0.insert(.once(task), at: max(deadline, $0.now)) }
        return task
    }

    func schedule(
        at start: SchedulerTime, every interval: Duration, leeway: Duration,
        _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        let repeating = RepeatingWork(work)
        state.withLock { $0.insert(.tick(repeating, interval: interval), at: max(start, $0.now)) }
        return repeating
    }

    func advance(by duration: Duration) { advance(to: now + duration) }

    func advance(to target: SchedulerTime) {
        while runNext(by: target) {}
        state.withLock { $0.now = advancesBackwards ? target : max($0.now, target) }
    }

    func step() -> Bool { runNext(by: .distantFuture) }

    func run(maxSteps: Int) -> VirtualTimeRunOutcome {
        var steps = 0
        while steps < maxSteps, runNext(by: .distantFuture) { steps += 1 }
        let pending = state.withLock { $0.buckets.values.reduce(0) { $0 + $1.count } }
        return pending == 0 || steps < maxSteps ? .drained(steps: steps) : .stoppedEarly(steps: steps, pending: pending)
    }

    private func runNext(by limit: SchedulerTime) -> Bool {
        while let (due, entry) = state.withLock({ $0.popDue(by: limit, newestFirst: reversesTies) }) {
            switch entry {
            case .once(let task):
                if Schedulers.performAsCurrent(self, { task.run() }) { return true }
            case .tick(let repeating, let interval):
                let tick = Schedulers.performAsCurrent(self) { repeating.runTick() }
                if tick.goesOn {
                    state.withLock { $0.insert(.tick(repeating, interval: interval), at: due + interval) }
                }
                if countsTicksThatEnd ? tick.ran : tick.goesOn { return true }
            }
        }
        return false
    }
}
