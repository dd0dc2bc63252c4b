import Synchronization

// MARK: - cancelTokenHandlerRegisteredAfterCancel

/// A hand-rolled cancellation token (as in many pre-async networking layers).
final class CancelToken: Sendable {
    private struct State {
        var cancelled = false
        var handlers: [@Sendable () -> Void] = []
    }
    private let state = Mutex(State())

    func cancel() {
        let handlers = state.withLock { s -> [@Sendable () -> Void] in
            guard !s.cancelled else { return [] }
            s.cancelled = true
            defer { s.handlers = [] }
            return s.handlers
        }
        for handler in handlers { handler() }
    }

    /// Buggy: only stores the handler; if cancel() already ran, the handler never runs.
    func onCancelBuggy(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.handlers.append(handler) }
    }

    /// Fixed: registering on an already-cancelled token runs the handler at once.
    func onCancel(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { s -> Bool in
            if s.cancelled { return true }
            s.handlers.append(handler)
            return false
        }
        if runNow { handler() }
    }
}

final class Download: Sendable {
    private let aborts = Mutex(0)
    func open() async { await Task.yield() }  // connect, send headers
    func abort() { aborts.withLock { $0 += 1 } }
    var abortCount: Int { aborts.withLock { $0 } }
}

enum CancelTokenCase {
    static func run(_ clock: any Clock<Duration>, fixed: Bool) async throws {
        let token = CancelToken()
        let download = Download()
        try await concurrently(
            {
                await download.open()
                let abort: @Sendable () -> Void = { download.abort() }
                if fixed { token.onCancel(abort) } else { token.onCancelBuggy(abort) }
            },
            {
                token.cancel()  // the user taps "Cancel"
            }
        )
        let aborts = download.abortCount
        if aborts != 1 {
            throw CaseFailed(
                "user cancelled but the download was aborted \(aborts) times (handler registered after cancel)")
        }
    }
}

// MARK: - semaphoreLostWakeup

actor AsyncSemaphore {
    private var permits: Int
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(permits: Int) { self.permits = permits }

    private func tryAcquire() -> Bool {
        guard permits > 0 else { return false }
        permits -= 1
        return true
    }

    private func enqueue(_ waiter: CheckedContinuation<Void, Never>) {
        waiters.append(waiter)
    }

    func signal() {
        if waiters.isEmpty {
            permits += 1
        } else {
            waiters.removeFirst().resume()
        }
    }

    /// Buggy: nonisolated wait() checks for a permit in one actor call and enqueues itself in another.
    /// A signal() in between adds a permit nobody takes, and the waiter sleeps forever.
    nonisolated func waitBuggy() async {
        if await tryAcquire() { return }
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            Task { await self.enqueue(waiter) }
        }
    }

    /// Fixed: the check and the enqueue happen in one actor turn.
    func wait() async {
        if tryAcquire() { return }
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            waiters.append(waiter)
        }
    }
}

enum SemaphoreCase {
    static func run(_ clock: any Clock<Duration>, fixed: Bool) async throws {
        let semaphore = AsyncSemaphore(permits: 0)
        try await concurrently(
            { fixed ? await semaphore.wait() : await semaphore.waitBuggy() },
            { await semaphore.signal() }
        )
    }
}

// MARK: - asyncLockCancelDoubleResume

/// A FIFO async lock whose lock() is cancellable.
final class AsyncLock: Sendable {
    private struct Waiter {
        let id: Int
        let box: ResumeOnce<Void>
    }
    private struct State {
        var locked = false
        var waiters: [Waiter] = []
        var nextID = 0
        var cancelledBeforeQueued: Set<Int> = []
    }
    private let state = Mutex(State())
    let log = ResumeLog()

    private func newID() -> Int {
        state.withLock { s in
            s.nextID += 1
            return s.nextID
        }
    }

    /// Buggy: the cancellation handler resumes the queued waiter but leaves it in the queue, so a
    /// later unlock() hands the lock to it and resumes the same continuation a second time.
    func lockBuggy() async throws {
        let id = newID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let box = ResumeOnce(continuation, log: log)
                let acquired = state.withLock { s -> Bool in
                    if !s.locked {
                        s.locked = true
                        return true
                    }
                    s.waiters.append(Waiter(id: id, box: box))
                    return false
                }
                if acquired { box.resume(with: .success(())) }
            }
        } onCancel: {
            let waiter = state.withLock { s in s.waiters.first { $0.id == id } }
            waiter?.box.resume(with: .failure(CancellationError()))
        }
    }

    /// Fixed: whoever removes the waiter from the queue (unlock or cancellation) is the only one who
    /// resumes it; a cancellation that comes before the waiter is queued is remembered.
    func lock() async throws {
        let id = newID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let box = ResumeOnce(continuation, log: log)
                enum Outcome { case acquired, cancelled, queued }
                let outcome = state.withLock { s -> Outcome in
                    if s.cancelledBeforeQueued.remove(id) != nil { return .cancelled }
                    if !s.locked {
                        s.locked = true
                        return .acquired
                    }
                    s.waiters.append(Waiter(id: id, box: box))
                    return .queued
                }
                switch outcome {
                case .acquired: box.resume(with: .success(()))
                case .cancelled: box.resume(with: .failure(CancellationError()))
                case .queued: break
                }
            }
        } onCancel: {
            let waiter = state.withLock { s -> Waiter? in
                if let index = s.waiters.firstIndex(where: { $0.id == id }) {
                    return s.waiters.remove(at: index)
                }
                s.cancelledBeforeQueued.insert(id)
                return nil
            }
            waiter?.box.resume(with: .failure(CancellationError()))
        }
    }

    func unlock() {
        let next = state.withLock { s -> Waiter? in
            if s.waiters.isEmpty {
                s.locked = false
                return nil
            }
            return s.waiters.removeFirst()
        }
        next?.box.resume(with: .success(()))
    }
}

enum AsyncLockCase {
    static func run(_ clock: any Clock<Duration>, fixed: Bool) async throws {
        let lock = AsyncLock()
        let acquire: @Sendable () async throws -> Void = {
            if fixed { try await lock.lock() } else { try await lock.lockBuggy() }
        }
        try await acquire()
        let contender = Task {
            try await acquire()
            lock.unlock()
        }
        await Task.yield()
        contender.cancel()
        lock.unlock()
        _ = try? await contender.value
        let extra = lock.log.extraResumes
        if extra > 0 {
            throw CaseFailed(
                "a queued lock() continuation would have been resumed twice (by its cancellation handler and by unlock())"
            )
        }
    }
}

// MARK: - legacyCallbackTimeoutDoubleResume

/// A callback-style API: calls `completion` when the download ends and `onTimeout` when the timeout
/// elapses first. When both happen at about the same time it calls both.
struct LegacyDownloader: Sendable {
    let clock: any Clock<Duration>

    func start(
        latency: Duration, timeout: Duration, tasks: TaskBag,
        completion: @escaping @Sendable (String) -> Void,
        onTimeout: @escaping @Sendable () -> Void
    ) {
        let clock = self.clock
        let timer = Task {
            do { try await clock.sleep(for: timeout) } catch { return }
            onTimeout()
        }
        let work = Task {
            try? await clock.sleep(for: latency)
            timer.cancel()
            completion("payload")
        }
        tasks.add(timer)
        tasks.add(work)
    }
}

enum LegacyBridgeCase {
    /// Buggy bridge: both callbacks resume the continuation.
    static func downloadBuggy(_ legacy: LegacyDownloader, tasks: TaskBag, log: ResumeLog) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            let box = ResumeOnce(continuation, log: log)
            legacy.start(
                latency: .milliseconds(10), timeout: .milliseconds(10), tasks: tasks,
                completion: { box.resume(with: .success($0)) },
                onTimeout: { box.resume(with: .failure(TimeoutError())) }
            )
        }
    }

    /// Fixed bridge: the first callback claims the continuation; the other is ignored.
    static func download(_ legacy: LegacyDownloader, tasks: TaskBag) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            let once = OnceFlag()
            legacy.start(
                latency: .milliseconds(10), timeout: .milliseconds(10), tasks: tasks,
                completion: { data in if once.claim() { continuation.resume(returning: data) } },
                onTimeout: { if once.claim() { continuation.resume(throwing: TimeoutError()) } }
            )
        }
    }

    static func run(_ clock: any Clock<Duration>, fixed: Bool) async throws {
        let legacy = LegacyDownloader(clock: clock)
        let tasks = TaskBag()
        let log = ResumeLog()
        if fixed {
            _ = try? await download(legacy, tasks: tasks)
        } else {
            _ = try? await downloadBuggy(legacy, tasks: tasks, log: log)
        }
        await tasks.drain()
        if log.extraResumes > 0 {
            throw CaseFailed(
                "completion and timeout callbacks both fired; the continuation would have been resumed twice")
        }
    }
}

// MARK: - channelSendCancelledBeforeSuspend

/// A rendezvous mailbox: send() suspends until a receiver takes the value; if the sending task is
/// cancelled (the receiver has gone away), send() gives up and returns.
final class Mailbox: Sendable {
    private enum Sender {
        case idle
        case waiting(Int, CheckedContinuation<Void, Never>)
        case cancelled
    }
    private let sender = Mutex(Sender.idle)

    /// Buggy: the cancellation handler only resumes a sender that is already parked. If cancellation
    /// arrives first (or while the task is still getting to the continuation), it is lost and send() hangs.
    func sendBuggy(_ value: Int) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                sender.withLock { $0 = .waiting(value, continuation) }
            }
        } onCancel: {
            let parked = sender.withLock { s -> CheckedContinuation<Void, Never>? in
                guard case .waiting(_, let continuation) = s else { return nil }
                s = .idle
                return continuation
            }
            parked?.resume()
        }
    }

    /// Fixed: cancellation is recorded as a state, and parking checks it.
    func send(_ value: Int) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let alreadyCancelled = sender.withLock { s -> Bool in
                    if case .cancelled = s { return true }
                    s = .waiting(value, continuation)
                    return false
                }
                if alreadyCancelled { continuation.resume() }
            }
        } onCancel: {
            let parked = sender.withLock { s -> CheckedContinuation<Void, Never>? in
                defer { s = .cancelled }
                guard case .waiting(_, let continuation) = s else { return nil }
                return continuation
            }
            parked?.resume()
        }
    }

    /// A receiver takes the parked value, if any.
    func receive() -> Int? {
        let taken = sender.withLock { s -> (Int, CheckedContinuation<Void, Never>)? in
            guard case .waiting(let value, let continuation) = s else { return nil }
            s = .idle
            return (value, continuation)
        }
        guard let (value, continuation) = taken else { return nil }
        continuation.resume()
        return value
    }
}

enum MailboxCase {
    static func run(_ clock: any Clock<Duration>, fixed: Bool) async throws {
        let mailbox = Mailbox()
        let producer = Task {
            if fixed { await mailbox.send(1) } else { await mailbox.sendBuggy(1) }
        }
        producer.cancel()  // the consumer went away; nobody will call receive()
        await producer.value
    }
}
