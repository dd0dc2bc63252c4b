/// Runs work now, on the caller's thread (RAC's `immediateScheduler`, RxSwift's `CurrentThreadScheduler`).
///
/// Work scheduled from inside running work is *trampolined*: it runs after the enclosing work returns, in FIFO
/// order, so recursion never grows the stack. While its work runs, `Schedulers.current === Schedulers.immediate`,
/// and the outer current scheduler is restored afterwards. It is deliberately not a ``TimedScheduler``: delayed
/// work on it does not compile (RAC asserts at run time; combine-schedulers silently ignores the delay).
/// The handle of work that ran at once is already finished; a trampolined task can be cancelled until it starts.
public final class ImmediateScheduler: Scheduler {
    public let name = "immediate"
    /// The promises every scheduler of this type keeps (see ``SchedulerTraits``).
    public static let traits: SchedulerTraits = [.serial, .trampoline, .setsCurrent]

    public var traits: SchedulerTraits { Self.traits }

    init() {}

    @discardableResult
    public func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let thread = ThreadState.forThisThread
        if thread.pointee.trampolineActive {
            let task = ScheduledWork(work)
            thread.pointee.trampoline.append(task)
            return task
        }
        thread.pointee.trampolineActive = true
        unowned(unsafe) let previous = thread.pointee.current
        thread.pointee.current = self
        work()
        // Most work schedules nothing nested: the deque is then left untouched (popping from it checks uniqueness).
        if !thread.pointee.trampoline.isEmpty { Self.drainTrampoline(thread) }
        thread.pointee.current = previous
        thread.pointee.trampolineActive = false
        return SettledWork.ran
    }

    /// Runs the work nested calls deferred, and what that work defers in turn, in FIFO order.
    @inline(never)
    private static func drainTrampoline(_ thread: UnsafeMutablePointer<ThreadState>) {
        while let next = thread.pointee.trampoline.popFirst() {
            next.run()
        }
    }
}
