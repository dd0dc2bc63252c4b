import Synchronization

/// Runs the bodies as child tasks of one group and waits for all of them.
func concurrently(_ bodies: (@Sendable () async throws -> Void)...) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        for body in bodies {
            group.addTask { try await body() }
        }
        try await group.waitForAll()
    }
}

/// Keeps the handles of unstructured tasks a scenario starts, so it can await them all at the end.
final class TaskBag: Sendable {
    private let tasks = Mutex<[Task<Void, Never>]>([])

    func add(_ task: Task<Void, Never>) {
        tasks.withLock { $0.append(task) }
    }

    func drain() async {
        while let next = tasks.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
            await next.value
        }
    }
}

/// Counts resumptions that would have been a second resume of the same continuation.
final class ResumeLog: Sendable {
    private let extra = Mutex(0)
    func recordExtraResume() { extra.withLock { $0 += 1 } }
    var extraResumes: Int { extra.withLock { $0 } }
}

/// Wraps a continuation so that a second resume is recorded in `log` instead of trapping the process.
/// Only the buggy versions depend on this: it lets the catalogue report "would resume twice" as a CaseFailed.
final class ResumeOnce<T: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<T, any Error>?>
    private let log: ResumeLog

    init(_ continuation: CheckedContinuation<T, any Error>, log: ResumeLog) {
        self.continuation = Mutex(continuation)
        self.log = log
    }

    func resume(with result: Result<T, any Error>) {
        let taken = continuation.withLock { slot -> CheckedContinuation<T, any Error>? in
            defer { slot = nil }
            return slot
        }
        if let taken {
            taken.resume(with: result)
        } else {
            log.recordExtraResume()
        }
    }
}

/// A flag that exactly one caller can claim.
final class OnceFlag: Sendable {
    private let claimed = Mutex(false)
    func claim() -> Bool {
        claimed.withLock { done in
            if done { return false }
            done = true
            return true
        }
    }
}

struct TimeoutError: Error {}
struct OriginError: Error {}
