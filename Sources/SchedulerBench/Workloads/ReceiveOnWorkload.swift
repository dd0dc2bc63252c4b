#if Combine
    import SchedulerKit
    import SchedulerKitCombine

    #if canImport(Combine)
        import Combine
    #else
        import OpenCombine
    #endif

    // W18, with the Combine trait: events through Combine's `receive(on:)`, beside W16 and W17 (`ObserveOnWorkloads.swift`).

    extension Workload {
        /// W18: a Combine pipeline, `PassthroughSubject.receive(on:).sink`, on the lane's scheduler as a Combine
        /// scheduler: Combine's own scheduler behind an adapter, or a SchedulerKit timed scheduler's `.combine`.
        static let receiveOn = Workload(
            id: .receiveOn, name: "receive-on", summary: "events through Combine's receive(on:) onto the scheduler",
            requires: [.combine], metrics: observeOnMetrics, configurations: observeOnSizes
        ) { lanes, _, parameters in
            let consumer = EventConsumer(events: parameters[.events])
            let lane = lanes.lane("observer")
            return receiveOnRound(on: lane, consumer: consumer)
        }
    }

    /// A scheduler that can host W18's Combine pipeline on its own Combine scheduler.
    protocol CombinePipelineHost {
        func runReceiveOn(consumer: EventConsumer, drain: () -> Void) -> RoundResult
    }

    extension CombineSchedulerAdapter: CombinePipelineHost {
        /// Combine's own scheduler, not the adapter: what a Combine user writes (`receive(on: queue)`).
        func runReceiveOn(consumer: EventConsumer, drain: () -> Void) -> RoundResult {
            receiveOnPipeline(base, consumer: consumer, drain: drain)
        }
    }

    func receiveOnRound(on lane: any Lane, consumer: EventConsumer) -> RoundResult {
        switch lane.scheduler {
        case let host as any CombinePipelineHost:
            return host.runReceiveOn(consumer: consumer, drain: lane.drain)
        case let timed as any TimedScheduler:
            return receiveOnSchedulerKit(timed, consumer: consumer, drain: lane.drain)
        default:
            preconditionFailure("W18 needs a lane with the combine capability")
        }
    }

    private func receiveOnSchedulerKit<Base: TimedScheduler>(
        _ scheduler: Base, consumer: EventConsumer, drain: () -> Void
    )
        -> RoundResult
    {
        receiveOnPipeline(scheduler.combine, consumer: consumer, drain: drain)
    }

    private func receiveOnPipeline<S: CombineSchedulerProtocol>(
        _ scheduler: S, consumer: EventConsumer, drain: () -> Void
    )
        -> RoundResult
    {
        let subject = PassthroughSubject<SentEvent, Never>()
        let subscription = subject.receive(on: scheduler).sink { consumer.receive($0.index, sentAt: $0.sentAt) }
        defer { subscription.cancel() }
        return consumer.measure(drain: drain) { index, sentAt in subject.send(SentEvent(index: index, sentAt: sentAt)) }
    }
#endif
