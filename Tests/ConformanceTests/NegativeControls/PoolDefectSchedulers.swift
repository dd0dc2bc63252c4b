import SchedulerConformance
import SchedulerKit
import Synchronization

/// Negative controls for P3 and P5: a ThreadPoolConcurrentScheduler (width 2 on a pool of 3 threads, as the
/// built-in backend), correct but for one defect in its plain work.
final class PoolDefectScheduler: ConcurrentScheduler {
    enum Defect: Sendable {
        /// Work from outside the scheduler goes through a ring of `ringSlots` slots whose wrap-around hands the node
        /// at the wrap out twice: that task runs a second time on the worker that ran it (P3, the only check that
        /// submits that many). Cancellation stays truthful: a task runs twice only when it ran.
        case wrapRunsTwice
        /// Each task goes to the pool at once and cancel() only flags the handle, checked when the task was handed
        /// over, which has already happened: cancel() says yes and the task runs, as the tasks of the batch a
        /// SwiftNIO event loop has taken run after cancel() failed their futures (seen in its source) (P5).
        case cancelOnlyFlags
    }

    /// 65 536, scaled like P3's loop (SCHEDULERKIT_CONFORMANCE_SCALE: a tenth under ThreadSanitizer, where P3
    /// submits 12 000 tasks), so P3 always reaches the wrap.
    static let ringSlots = max(2_048, Int(65_536 * ConformanceScale.factor))

    let name = "pool-defect"
    private let inner: ThreadPoolConcurrentScheduler
    private let defect: Defect
    private let submitted = Atomic<Int>(0)
    var width: Int { inner.width }
    static let traits = ThreadPoolConcurrentScheduler.traits.subtracting([.timed, .repeating, .fixedRate, .shutdown])
    var traits: SchedulerTraits { Self.traits }

    init(_ inner: ThreadPoolConcurrentScheduler, defect: Defect) {
        self.inner = inner
        self.defect = defect
    }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        switch defect {
        case .wrapRunsTwice:
            let fromOutside = Schedulers.current !== self
            let twice = fromOutside && submitted.add(1, ordering: .relaxed).newValue == Self.ringSlots
            return inner.schedule { [self] in
                Schedulers.performAsCurrent(self, work)
                if twice { Schedulers.performAsCurrent(self, work) }
            }
        case .cancelOnlyFlags:
            inner.schedule { [self] in Schedulers.performAsCurrent(self, work) }
            return Flag()
        }
    }

    private final class Flag: Cancellable {
        private let flagged = Atomic<Bool>(false)
        func cancel() -> Bool { !flagged.exchange(true, ordering: .acquiringAndReleasing) }
        var isCancelled: Bool { flagged.load(ordering: .acquiring) }
    }

    static func backend(_ defect: Defect, name: String) -> ConformanceBackend {
        ConformanceBackend(name: name, traits: traits) {
            let pool = ThreadPool(threadCount: 3, name: "pool-defect")
            return ConformanceSession(
                makeScheduler: {
                    PoolDefectScheduler(pool.makeConcurrentScheduler(name: "pool-defect", width: 2), defect: defect)
                },
                tearDown: { pool.shutdown() })
        }
    }
}
