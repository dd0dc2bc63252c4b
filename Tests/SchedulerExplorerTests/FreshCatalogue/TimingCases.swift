import Synchronization

// MARK: - debounceStaleValueAfterCancelCheck

/// A search-field debouncer: each keystroke cancels the pending timer and starts a new one.
actor SearchDebouncer {
    let clock: any Clock<Duration>
    let quietPeriod: Duration
    private let fixed: Bool
    private var pending: Task<Void, Never>?
    private let timers = TaskBag()
    private var latest: String?
    private var generation = 0
    private(set) var delivered: [String] = []
    private(set) var stale: [String] = []

    init(clock: any Clock<Duration>, quietPeriod: Duration, fixed: Bool) {
        self.clock = clock
        self.quietPeriod = quietPeriod
        self.fixed = fixed
    }

    func submit(_ query: String) {
        latest = query
        generation += 1
        let generation = self.generation
        pending?.cancel()
        let timer = Task { await self.fireAfterQuietPeriod(query, generation: generation) }
        pending = timer
        timers.add(timer)
    }

    nonisolated private func fireAfterQuietPeriod(_ query: String, generation: Int) async {
        do { try await clock.sleep(for: quietPeriod) } catch { return }
        if fixed {
            await deliver(query, ifStillCurrent: generation)
        } else {
            // Buggy: the cancellation check runs off the actor; a newer submit() can run between
            // this check and the hop into deliver(), and the superseded query is delivered anyway.
            guard !Task.isCancelled else { return }
            await deliver(query)
        }
    }

    /// Fixed: the "is this still the latest?" check happens inside the actor, atomically with delivery.
    private func deliver(_ query: String, ifStillCurrent generation: Int) {
        guard generation == self.generation else { return }
        deliver(query)
    }

    private func deliver(_ query: String) {
        if query != latest { stale.append(query) }
        delivered.append(query)
    }

    func settle() async { await timers.drain() }
}

enum DebounceCase {
    static func run(_ clock: any Clock<Duration>, fixed: Bool) async throws {
        let quiet = Duration.milliseconds(10)
        let debouncer = SearchDebouncer(clock: clock, quietPeriod: quiet, fixed: fixed)
        await debouncer.submit("sw")
        try await clock.sleep(for: quiet)  // the user pauses about one quiet period
        await debouncer.submit("swift")
        await debouncer.settle()
        let stale = await debouncer.stale
        let delivered = await debouncer.delivered
        if !stale.isEmpty || delivered.last != "swift" {
            throw CaseFailed("debouncer delivered \(delivered); \(stale) was delivered after a newer query was typed")
        }
    }
}

// MARK: - throttleDropsTrailingValueOnFinish

/// A progress throttle: the first value of a window is emitted at once, later ones are kept as the
/// trailing value and emitted when the window closes.
actor ProgressThrottle {
    let clock: any Clock<Duration>
    let window: Duration
    private var windowOpen = false
    private var trailing: Int?
    private var timer: Task<Void, Never>?
    private let timers = TaskBag()
    private(set) var emitted: [Int] = []

    init(clock: any Clock<Duration>, window: Duration) {
        self.clock = clock
        self.window = window
    }

    func send(_ value: Int) {
        if windowOpen { trailing = value } else { emit(value) }
    }

    private func emit(_ value: Int) {
        emitted.append(value)
        windowOpen = true
        let t = Task { await self.closeWindowLater() }
        timer = t
        timers.add(t)
    }

    nonisolated private func closeWindowLater() async {
        do { try await clock.sleep(for: window) } catch { return }
        await windowElapsed()
    }

    private func windowElapsed() {
        windowOpen = false
        if let value = trailing {
            trailing = nil
            emit(value)
        }
    }

    /// Buggy: the upstream finished; the timer is cancelled and the pending trailing value with it.
    func finishBuggy() {
        timer?.cancel()
        windowOpen = false
    }

    /// Fixed: flush the trailing value before tearing the window down.
    func finish() {
        timer?.cancel()
        if let value = trailing {
            trailing = nil
            emitted.append(value)
        }
        windowOpen = false
    }

    func settle() async { await timers.drain() }
}

enum ThrottleCase {
    static func run(_ clock: any Clock<Duration>, fixed: Bool) async throws {
        let window = Duration.milliseconds(10)
        let throttle = ProgressThrottle(clock: clock, window: window)
        await throttle.send(50)
        try await clock.sleep(for: window)
        await throttle.send(100)  // the final "100 %" arrives about when the window closes
        if fixed { await throttle.finish() } else { await throttle.finishBuggy() }
        await throttle.settle()
        let emitted = await throttle.emitted
        if emitted.last != 100 {
            throw CaseFailed("throttled progress ended at \(emitted); the final value 100 was dropped on finish")
        }
    }
}

// MARK: - timeoutTimerCancelsNextRequest

actor SearchClient {
    let clock: any Clock<Duration>
    let timeout: Duration
    private var current: Task<String, any Error>?
    private let timers = TaskBag()

    init(clock: any Clock<Duration>, timeout: Duration) {
        self.clock = clock
        self.timeout = timeout
    }

    private static func origin(_ query: String, latency: Duration, clock: any Clock<Duration>) async throws -> String {
        try await clock.sleep(for: latency)
        return "results for \(query)"
    }

    /// Buggy: the timeout timer cancels "the current request" when it fires. It is never cancelled
    /// when the request finishes early, so it fires during the *next* request and cancels that one.
    func searchBuggy(_ query: String, latency: Duration) async throws -> String {
        let clock = self.clock
        let request = Task { try await Self.origin(query, latency: latency, clock: clock) }
        current = request
        timers.add(Task { await self.expireCurrentLater() })
        return try await request.value
    }

    nonisolated private func expireCurrentLater() async {
        do { try await clock.sleep(for: timeout) } catch { return }
        await cancelCurrent()
    }

    private func cancelCurrent() { current?.cancel() }

    /// Fixed: the timer holds its own request, and is cancelled as soon as the request ends.
    func search(_ query: String, latency: Duration) async throws -> String {
        let clock = self.clock
        let timeout = self.timeout
        let request = Task { try await Self.origin(query, latency: latency, clock: clock) }
        let timer = Task {
            do {
                try await clock.sleep(for: timeout)
                request.cancel()
            } catch {}
        }
        timers.add(timer)
        defer { timer.cancel() }
        return try await request.value
    }

    func settle() async { await timers.drain() }
}

enum TimeoutCase {
    static func run(_ clock: any Clock<Duration>, fixed: Bool) async throws {
        let client = SearchClient(clock: clock, timeout: .milliseconds(60))
        let search: @Sendable (String, Duration) async throws -> String = { query, latency in
            fixed
                ? try await client.search(query, latency: latency)
                : try await client.searchBuggy(query, latency: latency)
        }
        _ = try? await search("cats", .milliseconds(20))
        // The second search needs 40 ms, well inside its own 60 ms timeout.
        let second = try? await search("dogs", .milliseconds(40))
        await client.settle()
        if second == nil {
            throw CaseFailed("second search (40 ms, timeout 60 ms) was cancelled by the first search's timeout timer")
        }
    }
}

// MARK: - retryBackoffSwallowsCancellation

actor FlakyOrigin {
    private(set) var calls = 0
    let clock: any Clock<Duration>

    init(clock: any Clock<Duration>) { self.clock = clock }

    func get() async throws -> Int {
        calls += 1
        try await clock.sleep(for: .milliseconds(1))
        throw OriginError()  // the origin is down
    }
}

struct RetryingFetcher: Sendable {
    let origin: FlakyOrigin
    let clock: any Clock<Duration>
    let attempts = 5
    let backoff = Duration.milliseconds(2)

    /// Buggy: every error is retried, CancellationError included, and the backoff uses `try?`,
    /// so a cancelled caller keeps hammering the origin until attempts run out.
    func fetchBuggy() async throws -> Int {
        var attempt = 1
        while true {
            do {
                return try await origin.get()
            } catch {
                if attempt == attempts { throw error }
                attempt += 1
                try? await clock.sleep(for: backoff)
            }
        }
    }

    /// Fixed: cancellation is checked before each attempt and propagates out of the origin and the backoff.
    func fetch() async throws -> Int {
        var attempt = 1
        while true {
            try Task.checkCancellation()
            do {
                return try await origin.get()
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                if attempt == attempts { throw error }
                attempt += 1
                try await clock.sleep(for: backoff)
            }
        }
    }
}

enum RetryCase {
    static func run(_ clock: any Clock<Duration>, fixed: Bool) async throws {
        let origin = FlakyOrigin(clock: clock)
        let fetcher = RetryingFetcher(origin: origin, clock: clock)
        let call = Task { fixed ? try await fetcher.fetch() : try await fetcher.fetchBuggy() }
        // Attempts start at 0, 3, 6, 9, 12 ms; the user leaves the screen at 9 ms.
        try await clock.sleep(for: .milliseconds(9))
        call.cancel()
        let before = await origin.calls
        _ = try? await call.value
        let after = await origin.calls
        if after - before > 1 {
            throw CaseFailed("origin was called \(after - before) more times after the caller was cancelled")
        }
    }
}
