import DequeModule
import SchedulerKit

// W16–W18 (W18 in `ReceiveOnWorkload.swift`): one producer emits events that a consumer receives on a scheduler, as a reactive library's
// `observe(on:)` / `deliverOn:` / `receive(on:)` does. Each reports events per second (and its inverse) and the
// end-to-end latency of each event, from `send` to the consumer. The producer sends as fast as it can, so the
// latency includes the time an event queues behind the ones sent before it: the figure a pipeline under load sees.

extension Workload {
    static let observeOnMetrics: [Metric] = [.nsPerEvent, .eventsPerSecond] + latencyMetrics
    static let observeOnSizes: @Sendable (Scale) -> [Parameters] = {
        [Parameters([.events: $0.size(full: 100_000, quick: 10_000, smoke: 200)])]
    }

    /// W16: one `schedule` per event (RxSwift's `observe(on:)` on a serial scheduler without a drain, ReactiveSwift's
    /// `observe(on:)`).
    static let observeOn = Workload(
        id: .observeOn, name: "observe-on", summary: "events received on a scheduler, one schedule per event",
        requires: [.serial], metrics: observeOnMetrics, configurations: observeOnSizes
    ) { lanes, _, parameters in
        let consumer = EventConsumer(events: parameters[.events])
        let lane = lanes.lane("observer")
        return consumer.measure(drain: lane.drain) { index, sentAt in
            lane.submit { consumer.receive(index, sentAt: sentAt) }
        }
    }

    /// W17: the drain pattern of RxSwift's `ObserveOnSink` and RAC's `deliverOn:`: the producer appends the event to
    /// a queue and schedules a drain only when none is pending; the drain takes events until the queue is empty.
    static let observeOnDrain = Workload(
        id: .observeOnDrain, name: "observe-on-drain",
        summary: "events received on a scheduler, a drain scheduled only when none is pending",
        requires: [.serial], metrics: observeOnMetrics + [.eventsPerDrain, .sendsDuringDrain],
        configurations: observeOnSizes
    ) { lanes, _, parameters in
        let consumer = EventConsumer(events: parameters[.events])
        let lane = lanes.lane("observer")
        let mailbox = DrainingMailbox(lane: lane, consumer: consumer)
        var result = consumer.measure(drain: lane.drain) { index, sentAt in mailbox.send(index, sentAt: sentAt) }
        let meetings = mailbox.meetings
        result.values[.eventsPerDrain] = Double(consumer.events) / Double(max(1, meetings.drains))
        result.values[.sendsDuringDrain] = 100 * Double(meetings.sendsDuringDrain) / Double(max(1, consumer.events))
        return result
    }
}

/// An event: its index, and when it was sent.
struct SentEvent: Sendable {
    let index: Int
    let sentAt: UInt64
}

/// Where events arrive: records each one's latency and wakes the producer when the last one is in.
final class EventConsumer: Sendable {
    let events: Int
    private let latencies: SampleSlots
    private let done: Countdown

    init(events: Int) {
        self.events = events
        latencies = SampleSlots(count: events)
        done = Countdown(events)
    }

    func receive(_ index: Int, sentAt: UInt64) {
        latencies.set(index, Clock.now() &- sentAt)
        done.tick()
    }

    /// Sends every event through `send`, runs `drain` (virtual time), waits for the last, and reports.
    func measure(drain: () -> Void, send: (Int, UInt64) -> Void) -> RoundResult {
        let start = Clock.now()
        for index in 0..<events { send(index, Clock.now()) }
        drain()
        done.wait()
        let nanoseconds = nanosecondsPer(events, from: start, to: Clock.now())
        let overhead = UInt64(BenchClock.overhead)
        var result = RoundResult.latencies(latencies.values.map { $0 &- min(overhead, $0) })
        result.values[.nsPerEvent] = nanoseconds
        result.values[.eventsPerSecond] = 1e9 / nanoseconds
        return result
    }
}

/// The producer side of the drain pattern (W17).
final class DrainingMailbox: Sendable {
    private struct State {
        var queued = Deque<SentEvent>()
        var drainPending = false
        /// A drain is between its first take and the take that found the queue empty.
        var draining = false
        var counts = Meetings()
    }

    /// How producer and drain met in one round: what explains W17's figure beside the scheduler's own cost.
    struct Meetings {
        var drains = 0
        var sendsDuringDrain = 0
    }
    /// `Locked`, not `Mutex`: TSan sees a pthread mutex, not the standard library's (see `Locked`).
    private let state = Locked(State())
    private let lane: any Lane
    private let consumer: EventConsumer

    init(lane: any Lane, consumer: EventConsumer) {
        self.lane = lane
        self.consumer = consumer
    }

    func send(_ index: Int, sentAt: UInt64) {
        let scheduleDrain = state.withLock { state in
            state.queued.append(SentEvent(index: index, sentAt: sentAt))
            if state.draining { state.counts.sendsDuringDrain += 1 }
            defer { state.drainPending = true }
            if !state.drainPending { state.counts.drains += 1 }
            return !state.drainPending
        }
        if scheduleDrain { lane.submit { [self] in drain() } }
    }

    var meetings: Meetings { state.withLock { $0.counts } }

    /// Takes the whole queue at once, delivers it, and ends only when a take finds the queue empty (then the next
    /// `send` schedules a new drain).
    private func drain() {
        while true {
            let batch: Deque<SentEvent>? = state.withLock { state in
                if state.queued.isEmpty {
                    state.drainPending = false
                    state.draining = false
                    return nil
                }
                state.draining = true
                defer { state.queued.removeAll(keepingCapacity: true) }
                return state.queued
            }
            guard let batch else { return }
            for event in batch { consumer.receive(event.index, sentAt: event.sentAt) }
        }
    }
}
