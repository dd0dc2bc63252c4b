import Dispatch

/// A third party's own executor: an actor's SerialExecutor over a private serial DispatchQueue. It knows its queue by
/// a queue-specific key, so it can say whether the current code runs in one of its jobs.
public final class SerialQueueExecutor: SerialExecutor {
    private let queue: DispatchQueue
    private let key = DispatchSpecificKey<Bool>()

    public init(label: String = "serial-queue-executor") {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: key, value: true)
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }

    public func isIsolatingCurrentContext() -> Bool? { DispatchQueue.getSpecific(key: key) == true }

    public func checkIsolated() {
        precondition(isIsolatingCurrentContext() == true, "not in a job of \(queue.label)")
    }
}
