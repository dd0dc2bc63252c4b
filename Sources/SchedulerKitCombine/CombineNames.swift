#if Combine
    #if canImport(Combine)
        import Combine
    #else
        import OpenCombine
    #endif

    // SchedulerKit and Combine both name a `Scheduler` and a `Cancellable`. Inside this module and for its users, these
    // names say which one is meant, and hide whether Combine or OpenCombine (on Linux) provides it.

    /// Combine's `Scheduler` protocol (OpenCombine's where Combine is not part of the system).
    public typealias CombineSchedulerProtocol = Scheduler
    /// Combine's `Cancellable` protocol, the handle of Combine's repeating work.
    public typealias CombineCancellable = Cancellable
    /// Combine's type-erased cancellable.
    public typealias CombineAnyCancellable = AnyCancellable

    /// A Combine action carried into SchedulerKit's `@Sendable` work.
    ///
    /// Combine's actions are not `@Sendable` (Combine predates the annotation), yet the `Scheduler` contract is that the
    /// scheduler runs them on its own threads, later; every Combine scheduler does so.
    // @unchecked Sendable: the action is only called, never shared while called: once per schedule, or once per tick
    // (ticks never overlap), on the scheduler's thread. What it captures is the subscription's state, which Combine's
    // operators guard themselves because any scheduler may call them from any thread.
    struct CombineAction: @unchecked Sendable {
        let run: () -> Void
    }
#endif
