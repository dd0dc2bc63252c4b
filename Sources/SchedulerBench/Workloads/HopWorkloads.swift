import SchedulerKit

extension Workload {
    /// W4: a counter bounces between two serial lanes; each hop is scheduled from inside the other lane's task.
    static let pingPong = Workload(
        id: .pingPong, name: "ping-pong", summary: "round trips between two schedulers",
        requires: [.serial, .asynchronous, .promptWakeUp], metrics: [.nsPerRoundTrip, .cpuNsPerRoundTrip],
        configurations: { [Parameters([.roundTrips: $0.size(full: 5_000, quick: 2_000, smoke: 50)])] }
    ) { lanes, _, parameters in
        let trips = parameters[.roundTrips]
        let rally = Rally(ping: lanes.lane("ping"), pong: lanes.lane("pong"), trips: trips)
        let cpuStart = ProcessCPU.nanoseconds()
        let start = Clock.now()
        rally.serve()
        rally.done.wait()
        let end = Clock.now()
        return RoundResult(values: [
            .nsPerRoundTrip: nanosecondsPer(trips, from: start, to: end),
            .cpuNsPerRoundTrip: nanosecondsPer(trips, from: cpuStart, to: ProcessCPU.nanoseconds()),
        ])
    }

    /// W10: values delivered through two schedulers in turn, as `deliverOn` / `observe(on:)` chains do: the producer
    /// hands each value to the first scheduler, whose task hands it on to the second, whose task consumes it.
    static let reactiveHop = Workload(
        id: .reactiveHop, name: "reactive-hop", summary: "values delivered through two schedulers (deliverOn twice)",
        requires: [.serial], metrics: [.nsPerValue],
        configurations: { [Parameters([.values: $0.size(full: 25_000, quick: 10_000, smoke: 200)])] }
    ) { lanes, _, parameters in
        let values = parameters[.values]
        let (first, second) = (lanes.lane("observe-1"), lanes.lane("observe-2"))
        let done = Countdown(values)
        let sum = SharedCounter(0)
        let start = Clock.now()
        for _ in 0..<values {
            first.submit {
                second.submit {
                    sum.increment()
                    done.tick()
                }
            }
        }
        first.drain()
        second.drain()
        done.wait()
        return RoundResult(values: [.nsPerValue: nanosecondsPer(values, from: start, to: Clock.now())])
    }
}

/// The ping-pong of W4: `ping` hands to `pong`, `pong` hands back to `ping`, `trips` times.
private final class Rally: Sendable {
    let ping: any Lane
    let pong: any Lane
    let remaining: SharedCounter
    let done = Countdown(1)

    init(ping: any Lane, pong: any Lane, trips: Int) {
        self.ping = ping
        self.pong = pong
        remaining = SharedCounter(trips)
    }

    func serve() {
        ping.submit { [self] in
            pong.submit { [self] in
                if remaining.decrement() > 0 { serve() } else { done.tick() }
            }
        }
    }
}
