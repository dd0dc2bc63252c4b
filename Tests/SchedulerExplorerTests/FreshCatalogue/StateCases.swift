import Synchronization

// MARK: - cacheWithoutInFlightDedupe

actor ThumbnailBackend {
    private(set) var fetches = 0

    func fetch(_ key: String) async -> String {
        fetches += 1
        await Task.yield()  // the network round trip
        return "thumbnail-\(key)"
    }
}

/// Buggy: checks the cache, awaits the backend, then stores. A second caller arriving during the
/// await misses the cache too and starts its own fetch.
actor NaiveThumbnailCache {
    private var cache: [String: String] = [:]
    private let backend: ThumbnailBackend

    init(backend: ThumbnailBackend) { self.backend = backend }

    func thumbnail(_ key: String) async -> String {
        if let hit = cache[key] { return hit }
        let value = await backend.fetch(key)
        cache[key] = value
        return value
    }
}

/// Fixed: remembers the in-flight load per key and lets later callers await the same task.
actor DedupingThumbnailCache {
    private var cache: [String: String] = [:]
    private var inFlight: [String: Task<String, Never>] = [:]
    private let backend: ThumbnailBackend

    init(backend: ThumbnailBackend) { self.backend = backend }

    func thumbnail(_ key: String) async -> String {
        if let hit = cache[key] { return hit }
        if let running = inFlight[key] { return await running.value }
        let backend = self.backend
        let load = Task { await backend.fetch(key) }
        inFlight[key] = load
        let value = await load.value
        cache[key] = value
        inFlight[key] = nil
        return value
    }
}

enum CacheDedupe {
    static func buggy(_ clock: any Clock<Duration>) async throws {
        let backend = ThumbnailBackend()
        let cache = NaiveThumbnailCache(backend: backend)
        async let first = cache.thumbnail("avatar")
        async let second = cache.thumbnail("avatar")
        _ = await (first, second)
        let fetches = await backend.fetches
        if fetches != 1 {
            throw CaseFailed("two concurrent loads of one key hit the backend \(fetches) times")
        }
    }

    static func fixed(_ clock: any Clock<Duration>) async throws {
        let backend = ThumbnailBackend()
        let cache = DedupingThumbnailCache(backend: backend)
        async let first = cache.thumbnail("avatar")
        async let second = cache.thumbnail("avatar")
        _ = await (first, second)
        let fetches = await backend.fetches
        if fetches != 1 {
            throw CaseFailed("two concurrent loads of one key hit the backend \(fetches) times")
        }
    }
}

// MARK: - tokenBucketWaiterAssumesRefill

actor TokenBucket {
    private var tokens: Int
    private(set) var lowest: Int

    init(tokens: Int) {
        self.tokens = tokens
        self.lowest = tokens
    }

    var hasToken: Bool { tokens > 0 }

    func take() {
        tokens -= 1
        lowest = min(lowest, tokens)
    }

    func tryTake() -> Bool {
        guard tokens > 0 else { return false }
        take()
        return true
    }

    func refill() { tokens += 1 }
}

struct RateLimiter: Sendable {
    let bucket: TokenBucket
    let clock: any Clock<Duration>
    let refillInterval: Duration

    /// Buggy: looks at the bucket, and if it is empty sleeps one refill interval and then takes a
    /// token on the assumption that the refill has happened and the token is this caller's.
    func acquireBuggy() async throws {
        if !(await bucket.hasToken) {
            try await clock.sleep(for: refillInterval)
        }
        await bucket.take()
    }

    /// Fixed: check-and-take is one actor call, retried after each interval.
    func acquire() async throws {
        while !(await bucket.tryTake()) {
            try await clock.sleep(for: refillInterval)
        }
    }
}

enum TokenBucketCase {
    static func run(_ clock: any Clock<Duration>, buggy: Bool) async throws {
        let interval = Duration.milliseconds(10)
        let bucket = TokenBucket(tokens: 1)
        let limiter = RateLimiter(bucket: bucket, clock: clock, refillInterval: interval)
        let acquire: @Sendable () async throws -> Void = {
            if buggy { try await limiter.acquireBuggy() } else { try await limiter.acquire() }
        }
        try await concurrently(
            {
                try await clock.sleep(for: interval)
                await bucket.refill()
            },  // the refill timer
            acquire,
            acquire
        )
        let lowest = await bucket.lowest
        if lowest < 0 {
            throw CaseFailed("rate limiter handed out more tokens than it had (bucket went to \(lowest))")
        }
    }
}

// MARK: - fireAndForgetSaveReadTooEarly

actor NotesStore {
    private(set) var notes: [String] = []
    func insert(_ note: String) { notes.append(note) }
}

final class NotesViewModel: Sendable {
    let store: NotesStore
    init(store: NotesStore) { self.store = store }

    /// Buggy: a synchronous "save" that fires a Task and returns before the insert happened.
    @discardableResult
    func addBuggy(_ text: String) -> Task<Void, Never> {
        Task { await store.insert(text) }
    }

    /// Fixed: the save is async and completes before the caller goes on.
    func add(_ text: String) async {
        await store.insert(text)
    }
}

enum FireAndForget {
    static func buggy(_ clock: any Clock<Duration>) async throws {
        let store = NotesStore()
        let model = NotesViewModel(store: store)
        let save = model.addBuggy("buy milk")
        let shown = await store.notes.count  // the list refreshes right after "save"
        await save.value
        if shown != 1 {
            throw CaseFailed("list refreshed after save showed \(shown) notes; the insert had not run yet")
        }
    }

    static func fixed(_ clock: any Clock<Duration>) async throws {
        let store = NotesStore()
        let model = NotesViewModel(store: store)
        await model.add("buy milk")
        let shown = await store.notes.count
        if shown != 1 {
            throw CaseFailed("list refreshed after save showed \(shown) notes; the insert had not run yet")
        }
    }
}

// MARK: - accountWithdrawReentrancy

actor FraudCheck {
    func approve(_ amount: Int) async -> Bool {
        await Task.yield()  // remote risk service
        return true
    }
}

actor Account {
    private(set) var balance: Int
    private let fraud: FraudCheck

    init(balance: Int, fraud: FraudCheck) {
        self.balance = balance
        self.fraud = fraud
    }

    /// Buggy: the balance check happens before the await; another withdrawal can run during it.
    func withdrawBuggy(_ amount: Int) async -> Bool {
        guard balance >= amount else { return false }
        guard await fraud.approve(amount) else { return false }
        balance -= amount
        return true
    }

    /// Fixed: the balance check and the debit sit in the same actor turn, after the await.
    func withdraw(_ amount: Int) async -> Bool {
        guard await fraud.approve(amount) else { return false }
        guard balance >= amount else { return false }
        balance -= amount
        return true
    }
}

enum AccountReentrancy {
    static func run(_ clock: any Clock<Duration>, buggy: Bool) async throws {
        let account = Account(balance: 100, fraud: FraudCheck())
        let withdraw: @Sendable () async throws -> Void = {
            _ = buggy ? await account.withdrawBuggy(70) : await account.withdraw(70)
        }
        try await concurrently(withdraw, withdraw)
        let balance = await account.balance
        if balance < 0 {
            throw CaseFailed("two withdrawals of 70 from 100 both succeeded; balance is \(balance)")
        }
    }
}
