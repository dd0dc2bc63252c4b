import Dispatch
import Foundation
import SchedulerKit
import Synchronization
@_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency

/// Global executors with one planted defect each, installed through the runtime's global-enqueue hook as SwiftNIO's
/// takeover is (one, whose defect is in its sleeps, through the executor factory, which alone hands an executor the
/// sleeps); every job they do not mishandle goes to Swift's own executor. Each is installed in a child process of
/// its own (an exit test), since the hook is the whole process's.
enum PlantedGlobalDefect: String, Codable, Sendable, CaseIterable {
    /// Keeps each job until the next one arrives, then hands the kept one on: a hand-off that forgets to wake a
    /// worker. The last job of a quiet process never runs.
    case strandsLastJob
    /// Runs every 50th job a second time, on a Dispatch queue.
    case runsSomeJobsTwice
    /// Drops a job when another thread is inside enqueue (a try-lock fast path with no slow path).
    case dropsWhenBusy
    /// Runs every job at once on the enqueuing thread.
    case runsInline
    /// Installs nothing, while the subject claims the jobs run on threads of its own.
    case doesNotTakeOver
    /// Keeps a job enqueued from inside one of its jobs for that job's thread, to run after that job returns (a "run
    /// next here" slot nobody else can take).
    case keepsNewJobsOnTheirThread
    /// Takes every job and runs none: a subject that never answers. Every rule must fail with its own finding, within
    /// its deadline.
    case dropsEveryJob
    /// Made the default executor by the executor factory, it wakes each sleeper after half its delay (a deadline
    /// read against the wrong clock, or a delay halved by a unit mistake).
    case wakesSleepersEarly

    /// The rules it must fail.
    var mustFail: [RuleIDText] {
        switch self {
        case .strandsLastJob: ["GE1", "GE3"]
        case .runsSomeJobsTwice: ["GE4"]
        case .dropsWhenBusy: ["GE2"]
        case .runsInline: ["GE5"]
        case .doesNotTakeOver: ["GE1"]
        case .keepsNewJobsOnTheirThread: ["GE6"]
        case .dropsEveryJob: ["GE1", "GE2", "GE3", "GE4", "GE5", "GE6"]
        case .wakesSleepersEarly: ["GE3"]
        }
    }
}

/// A rule id as text (what crosses into an exit test).
typealias RuleIDText = String

enum PlantedGlobalExecutor {
    typealias Original = @convention(thin) (UnownedJob) -> Void
    typealias Hook = @convention(thin) (UnownedJob, Original) -> Void

    // nonisolated(unsafe): written once by `install`, before the hook that reads it is installed, and never again.
    nonisolated(unsafe) private static var defect = PlantedGlobalDefect.strandsLastJob
    // `Locked`, not `Mutex`, so that ThreadSanitizer sees the ordering (see `Locked`).
    private static let kept = Locked<UnownedJob?>(nil)
    private static let busy = Atomic<Bool>(false)
    private static let count = Atomic<Int>(0)
    private static let generic = unsafeBitCast((0, 0), to: UnownedSerialExecutor.self)

    // nonisolated(unsafe): a constant function of no state; thin function types are not marked Sendable.
    nonisolated(unsafe) private static let hook: Hook = { job, original in
        switch defect {
        case .strandsLastJob:
            if let previous = kept.withLock({ kept in
                defer { kept = job }
                return kept
            }) {
                original(previous)
            }
        case .runsSomeJobsTwice:
            if count.add(1, ordering: .relaxed).newValue.isMultiple(of: 50) {
                let copy = job
                DispatchQueue.global().async { copy.runSynchronously(on: generic) }
            }
            original(job)
        case .dropsWhenBusy:
            guard busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else { return }
            original(job)
            busy.store(false, ordering: .releasing)
        case .runsInline:
            job.runSynchronously(on: generic)
        case .doesNotTakeOver, .wakesSleepersEarly:
            original(job)
        case .dropsEveryJob:
            return
        case .keepsNewJobsOnTheirThread:
            if let kept = KeptJobs.onThisThread {
                kept.jobs.append(job)
            } else {
                let handed = job
                DispatchQueue.global().async { KeptJobs.run(handed) }
            }
        }
    }

    /// The jobs kept for the thread running one of the planted executor's jobs.
    // @unchecked Sendable: used only by the thread whose dictionary holds it.
    final class KeptJobs: @unchecked Sendable {
        var jobs: [UnownedJob] = []
        static let key = "planted-global-executor-kept-jobs"

        static var onThisThread: KeptJobs? { Thread.current.threadDictionary[key] as? KeptJobs }

        /// Runs `job`, then every job it (and they) kept here, on this thread.
        static func run(_ job: UnownedJob) {
            let kept = KeptJobs()
            Thread.current.threadDictionary[key] = kept
            job.runSynchronously(on: generic)
            while !kept.jobs.isEmpty { kept.jobs.removeFirst().runSynchronously(on: generic) }
            Thread.current.threadDictionary[key] = nil
        }
    }

    /// Installs `defect` as this process's global executor.
    static func install(_ defect: PlantedGlobalDefect) {
        self.defect = defect
        guard defect != .doesNotTakeOver else { return }
        if defect == .wakesSleepersEarly {
            return _createExecutors(factory: EarlyWakingFactory.self)
        }
        let variable = dlsym(dlopen(nil, RTLD_NOW), "swift_task_enqueueGlobal_hook")!
        variable.assumingMemoryBound(to: Hook?.self).pointee = hook
    }
}

/// The executor factory of ``PlantedGlobalDefect/wakesSleepersEarly``: Dispatch's global queue for jobs, half of
/// every delay for sleeps.
enum EarlyWakingFactory: ExecutorFactory {
    static var mainExecutor: any MainExecutor { PlatformExecutorFactory.mainExecutor }
    static var defaultExecutor: any TaskExecutor { executor }
    private static let executor = EarlyWakingExecutor()
}

// @unchecked Sendable: no state.
final class EarlyWakingExecutor: TaskExecutor, SchedulingExecutor, @unchecked Sendable {
    private static let generic = unsafeBitCast((0, 0), to: UnownedSerialExecutor.self)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        DispatchQueue.global().async { job.runSynchronously(on: Self.generic) }
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C) {
        enqueue(job, at: clock.now.advanced(by: delay), tolerance: tolerance, clock: clock)
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C) {
        let job = UnownedJob(job)
        let delay = (clock.now.duration(to: instant) as? Duration) ?? .zero
        let half =
            DispatchTime.now() + .nanoseconds(Int(delay.components.seconds * 500_000_000))
            + .nanoseconds(Int(delay.components.attoseconds / 2_000_000_000))
        DispatchQueue.global().asyncAfter(deadline: half) { job.runSynchronously(on: Self.generic) }
    }
}
