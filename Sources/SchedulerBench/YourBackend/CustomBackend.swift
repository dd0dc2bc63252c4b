import SchedulerKit

/// One instance of your backend for one workload round: how to make a scheduler (a workload asks for one per lane,
/// by name), and how to release the instance once the round's work has finished (shut a private pool down).
public struct BackendInstance: Sendable {
    let makeScheduler: @Sendable (_ name: String) -> any Scheduler
    let shutdown: @Sendable () -> Void

    public init(
        makeScheduler: @escaping @Sendable (_ name: String) -> any Scheduler,
        shutdown: @escaping @Sendable () -> Void = {}
    ) {
        self.makeScheduler = makeScheduler
        self.shutdown = shutdown
    }
}

extension Backend {
    /// A backend of your own, measured exactly as the built-in ones are: the same lanes, workloads, rounds and CSV.
    ///
    /// - `traits` are your scheduler's (`MyScheduler.traits`): they decide which workloads run on it, as they decide
    ///   which conformance rules apply.
    /// - `comparedWith` is the backend whose figures the "vs ref" column divides by: a built-in one (`.threadPool`,
    ///   `.rawDispatch`) or nil.
    /// - `cancelsPlainWork: false` for a scheduler whose handles cannot cancel one-shot work (W7 is then skipped).
    /// - `makeInstance` runs once per round: each round gets a fresh instance, and its `shutdown` runs after it.
    public static func custom(
        _ id: BackendID, summary: String, traits: SchedulerTraits, comparedWith reference: BackendID? = nil,
        cancelsPlainWork: Bool = true, conformanceName: String? = nil,
        makeInstance: @escaping @Sendable () -> BackendInstance
    ) -> Backend {
        .scheduler(
            id, summary, wraps: reference, traits: traits, lacking: cancelsPlainWork ? [] : .cancellation,
            conformanceName: conformanceName ?? id.rawValue
        ) {
            let instance = makeInstance()
            return LaneGroup(make: { SchedulerLane(instance.makeScheduler($0)) }, close: instance.shutdown)
        }
    }

    /// Backends that are not built in, made known to every lookup by id (a run request, a child process of the same
    /// program). A program registers its own at start-up, before it runs anything.
    private static let registered = Locked<[Backend]>([])

    /// Makes `backends` known by their ids. An id a built-in backend uses is refused, with the id that clashes; an
    /// id registered before keeps its first registration.
    public static func register(_ backends: [Backend]) throws {
        if let clash = backends.first(where: { backend in all.contains { $0.id == backend.id } }) {
            throw BenchError("backend id '\(clash.id)' is a built-in backend's (see bench list); give yours another id")
        }
        registered.withLock { registered in
            for backend in backends where !registered.contains(where: { $0.id == backend.id }) {
                registered.append(backend)
            }
        }
    }

    /// The built-in backends, then the registered ones.
    public static var known: [Backend] { all + registered.withLock { $0 } }
}
