import Dispatch
import SchedulerKit

#if canImport(Glibc)
    import Glibc
#endif

/// A serial executor over a private Dispatch queue, correct unless given a defect: the base of the X rules'
/// negative controls. It notes which threads are running its jobs, so its isolation answers stay true to where its
/// jobs really run whatever the defect (X4's control lies on purpose).
final class QueueExecutor: SerialExecutor, TaskExecutor {
    enum Defect: Sendable {
        case none
        /// Runs each job on Dispatch's global concurrent queue (X1).
        case concurrent
        /// Runs each job inside `enqueue` (X3).
        case inline
        /// Says it isolates everywhere (X4).
        case claimsIsolationEverywhere
        /// Hands each job on to the global concurrent executor instead of running it on its queue (X5).
        case forwardsToGlobal
        /// Tells isolation by its queue's label, which every instance shares, instead of by instance: it says it
        /// isolates inside any control executor's job, and that two instances are one context (X4).
        case comparesLabels
    }

    /// Threads running a job of any instance (what the label-comparing defect reads).
    private static let runningAny = Locked<[pthread_t]>([])

    let defect: Defect
    private let queue = DispatchQueue(label: "control-executor")
    /// Threads running one of this executor's jobs now.
    private let running = Locked<[pthread_t]>([])

    init(_ defect: Defect = .none) { self.defect = defect }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        switch defect {
        case .inline: run(job)
        case .concurrent: DispatchQueue.global().async { self.run(job) }
        case .forwardsToGlobal: globalConcurrentExecutor.enqueue(ExecutorJob(job))
        case .none, .claimsIsolationEverywhere, .comparesLabels: queue.async { self.run(job) }
        }
    }

    private func run(_ job: UnownedJob) {
        // The runtime holds an executor unowned: a job run inside `enqueue` (X3's defect) can finish the rule whose
        // actor owns this executor and release it before `run` returns (a crash in CI, 26 November). The dispatched
        // paths capture `self`; this one keeps it alive itself.
        let kept = Unmanaged.passRetained(self)
        defer { kept.release() }
        let thread = pthread_self()
        for list in [running, Self.runningAny] { list.withLock { $0.append(thread) } }
        job.runSynchronously(on: asUnownedSerialExecutor())
        for list in [running, Self.runningAny] {
            list.withLock { threads in
                if let index = threads.lastIndex(where: { pthread_equal($0, thread) != 0 }) {
                    threads.remove(at: index)
                }
            }
        }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        defect == .comparesLabels ? UnownedSerialExecutor(complexEquality: self) : UnownedSerialExecutor(ordinary: self)
    }
    func asUnownedTaskExecutor() -> UnownedTaskExecutor { UnownedTaskExecutor(ordinary: self) }

    /// True on a thread running one of this executor's jobs (what X5 asks of a task executor).
    var isRunningJob: Bool {
        let thread = pthread_self()
        return running.withLock { $0.contains { pthread_equal($0, thread) != 0 } }
    }

    func isIsolatingCurrentContext() -> Bool? {
        let thread = pthread_self()
        return switch defect {
        case .claimsIsolationEverywhere: true
        case .comparesLabels: Self.runningAny.withLock { $0.contains { pthread_equal($0, thread) != 0 } }
        default: isRunningJob
        }
    }

    func isSameExclusiveExecutionContext(other: QueueExecutor) -> Bool {
        defect == .comparesLabels ? queue.label == other.queue.label : self === other
    }

    func checkIsolated() {
        precondition(isIsolatingCurrentContext() == true, "not in a job of the control executor")
    }
}

/// A serial executor whose thread takes the newest job first (X2's negative control): jobs enqueued while it is busy
/// run last-in first-out.
final class StackExecutor: SerialExecutor {
    private let jobs = Locked<[UnownedJob]>([])
    private let ready = DispatchSemaphore(value: 0)
    private let thread = DispatchQueue(label: "control-stack-executor")

    init() {
        thread.async { [self] in
            while true {
                ready.wait()
                guard let job = jobs.withLock({ $0.popLast() }) else { return }
                job.runSynchronously(on: asUnownedSerialExecutor())
            }
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        ready.signal()
    }

    /// Ends the thread once every job has run (a pop that finds nothing).
    func stop() { ready.signal() }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }
}
