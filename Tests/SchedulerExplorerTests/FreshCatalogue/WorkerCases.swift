import Synchronization

// MARK: - workerBatchStrandsLateSubmissions

actor JobProcessor {
    private(set) var done: [Int] = []
    func process(_ job: Int) async {
        await Task.yield()  // do the work
        done.append(job)
    }
}

/// A job queue that starts a worker task from submit() when none is running.
actor JobQueue {
    private var pending: [Int] = []
    private var running = false
    private let workers = TaskBag()
    private let fixed: Bool
    let processor = JobProcessor()

    init(fixed: Bool) { self.fixed = fixed }

    func submit(_ job: Int) {
        pending.append(job)
        guard !running else { return }
        running = true
        let fixed = self.fixed
        workers.add(Task { fixed ? await self.work() : await self.workBuggy() })
    }

    private func takeAll() -> [Int] {
        defer { pending = [] }
        return pending
    }

    private func markIdle() { running = false }

    /// Buggy worker: takes one batch, processes it, then goes idle in a second actor call. Jobs
    /// submitted while the batch was processing saw `running == true`, started no worker, and are stranded.
    nonisolated private func workBuggy() async {
        let batch = await takeAll()
        for job in batch { await processor.process(job) }
        await markIdle()
    }

    /// Fixed: "anything left? otherwise go idle" is one actor call.
    private func takeAllOrGoIdle() -> [Int] {
        if pending.isEmpty { running = false }
        return takeAll()
    }

    nonisolated private func work() async {
        while true {
            let batch = await takeAllOrGoIdle()
            if batch.isEmpty { return }
            for job in batch { await processor.process(job) }
        }
    }

    func waitForWorkers() async { await workers.drain() }
}

enum JobQueueCase {
    static func run(_ clock: any Clock<Duration>, fixed: Bool) async throws {
        let queue = JobQueue(fixed: fixed)
        await queue.submit(1)
        await Task.yield()
        await queue.submit(2)
        await queue.waitForWorkers()
        let done = await queue.processor.done
        if done.count != 2 {
            throw CaseFailed("submitted jobs [1, 2], processed \(done); the rest were stranded in the queue")
        }
    }
}

// MARK: - uploaderMarksIdleBeforeLastUpload

actor UploadServer {
    private var inFlight = 0
    private(set) var maxInFlight = 0
    private(set) var received: [Int] = []

    func upload(_ item: Int) async {
        inFlight += 1
        maxInFlight = max(maxInFlight, inFlight)
        await Task.yield()  // bytes on the wire
        inFlight -= 1
        received.append(item)
    }
}

/// An upload queue meant to send one item at a time, in order.
actor Uploader {
    private var queue: [Int] = []
    private var isRunning = false
    private let workers = TaskBag()
    private let fixed: Bool
    let server = UploadServer()

    init(fixed: Bool) { self.fixed = fixed }

    func enqueue(_ item: Int) {
        queue.append(item)
        guard !isRunning else { return }
        isRunning = true
        workers.add(Task { self.fixed ? await self.run() : await self.runBuggy() })
    }

    /// Buggy: "optimisation" that clears the running flag as soon as the last item is dequeued,
    /// before it is uploaded. An enqueue during that upload starts a second, concurrent worker.
    private func runBuggy() async {
        while !queue.isEmpty {
            let item = queue.removeFirst()
            if queue.isEmpty { isRunning = false }
            await server.upload(item)
        }
    }

    /// Fixed: the flag is cleared in the same actor turn that finds the queue empty.
    private func run() async {
        while !queue.isEmpty {
            let item = queue.removeFirst()
            await server.upload(item)
        }
        isRunning = false
    }

    func waitForWorkers() async { await workers.drain() }
}

enum UploaderCase {
    static func run(_ clock: any Clock<Duration>, fixed: Bool) async throws {
        let uploader = Uploader(fixed: fixed)
        await uploader.enqueue(1)
        await Task.yield()
        await uploader.enqueue(2)
        await uploader.waitForWorkers()
        let maxInFlight = await uploader.server.maxInFlight
        let received = await uploader.server.received
        if maxInFlight != 1 || received != [1, 2] {
            throw CaseFailed("uploads ran \(maxInFlight) at a time and arrived as \(received)")
        }
    }
}

// MARK: - connectionPoolReleaseDuplicates

actor ConnectionPool {
    private var idle: [Int]
    private var waiters: [CheckedContinuation<Int, Never>] = []

    init(connections: [Int]) { idle = connections }

    func checkout() async -> Int {
        if let connection = idle.popLast() { return connection }
        return await withCheckedContinuation { (waiter: CheckedContinuation<Int, Never>) in
            waiters.append(waiter)
        }
    }

    /// Buggy: puts the connection back on the idle list *and* hands it to a waiter.
    func releaseBuggy(_ connection: Int) {
        idle.append(connection)
        if !waiters.isEmpty {
            waiters.removeFirst().resume(returning: connection)
        }
    }

    /// Fixed: a released connection goes either to the first waiter or to the idle list.
    func release(_ connection: Int) {
        if !waiters.isEmpty {
            waiters.removeFirst().resume(returning: connection)
        } else {
            idle.append(connection)
        }
    }

    var idleConnections: [Int] { idle }
}

/// Tracks which connections are lent out, to catch a connection used by two borrowers at once.
final class LeaseTracker: Sendable {
    private let state = Mutex((leased: Set<Int>(), doubleLeases: 0))
    func lease(_ connection: Int) {
        state.withLock { s in
            if !s.leased.insert(connection).inserted { s.doubleLeases += 1 }
        }
    }
    func returnLease(_ connection: Int) { state.withLock { _ = $0.leased.remove(connection) } }
    var doubleLeases: Int { state.withLock { $0.doubleLeases } }
}

enum ConnectionPoolCase {
    static func run(_ clock: any Clock<Duration>, fixed: Bool) async throws {
        let pool = ConnectionPool(connections: [1])
        let leases = LeaseTracker()
        let borrow: @Sendable () async throws -> Void = {
            let connection = await pool.checkout()
            leases.lease(connection)
            await Task.yield()  // run a query
            leases.returnLease(connection)
            if fixed { await pool.release(connection) } else { await pool.releaseBuggy(connection) }
        }
        try await concurrently(borrow, borrow, borrow)
        let idle = await pool.idleConnections
        let doubles = leases.doubleLeases
        if idle != [1] || doubles > 0 {
            throw CaseFailed("pool of one connection ended with idle list \(idle); \(doubles) double leases")
        }
    }
}

// MARK: - closeRacesConnectLeavesPendingCount

final class Transport: Sendable {
    private let open = Mutex(true)
    func close() { open.withLock { $0 = false } }
    var isOpen: Bool { open.withLock { $0 } }
}

/// A connection provider: close() closes open connections and waits for pending connects to settle.
actor ConnectionProvider {
    private enum State { case active, closing, closed }
    private var state = State.active
    private var pendingConnects = 0
    private var open: [Transport] = []
    private(set) var dialed: [Transport] = []
    private var closeWaiter: CheckedContinuation<Void, Never>?

    nonisolated private func dial() async -> Transport {
        await Task.yield()  // TCP + TLS handshake
        return Transport()
    }

    /// Buggy: if close() ran during the dial, the new transport is neither registered nor closed,
    /// and the pending count is never decremented, so close() waits forever.
    func connectBuggy() async -> Transport? {
        guard state == .active else { return nil }
        pendingConnects += 1
        let transport = await dial()
        dialed.append(transport)
        guard state == .active else { return nil }
        pendingConnects -= 1
        open.append(transport)
        return transport
    }

    /// Fixed: every dial settles the pending count; a transport that arrives after close() is closed
    /// and the closer is woken when the last pending connect settles.
    func connect() async -> Transport? {
        guard state == .active else { return nil }
        pendingConnects += 1
        let transport = await dial()
        dialed.append(transport)
        pendingConnects -= 1
        guard state == .active else {
            transport.close()
            if pendingConnects == 0, let waiter = closeWaiter {
                closeWaiter = nil
                waiter.resume()
            }
            return nil
        }
        open.append(transport)
        return transport
    }

    func close() async {
        state = .closing
        for transport in open { transport.close() }
        open = []
        if pendingConnects > 0 {
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                closeWaiter = waiter
            }
        }
        state = .closed
    }
}

enum CloseConnectCase {
    static func run(_ clock: any Clock<Duration>, fixed: Bool) async throws {
        let provider = ConnectionProvider()
        try await concurrently(
            { _ = fixed ? await provider.connect() : await provider.connectBuggy() },
            {
                await Task.yield()
                await provider.close()
            }
        )
        let leaked = await provider.dialed.filter(\.isOpen).count
        if leaked > 0 {
            throw CaseFailed("\(leaked) transport(s) still open after close() returned")
        }
    }
}
