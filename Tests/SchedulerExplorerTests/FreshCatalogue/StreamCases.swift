import Synchronization

// MARK: - progressStreamBufferingOldestDropsCompletion

enum DownloadEvent: Sendable, Equatable {
    case progress(Int)
    case finished
}

actor ProgressView {
    private(set) var rendered: [DownloadEvent] = []
    func render(_ event: DownloadEvent) { rendered.append(event) }
}

enum ProgressStreamCase {
    /// The download reports progress through a stream with a one-element buffer.
    static func downloadEvents(policy: AsyncStream<DownloadEvent>.Continuation.BufferingPolicy)
        -> (AsyncStream<DownloadEvent>, Task<Void, Never>)
    {
        let (stream, continuation) = AsyncStream.makeStream(of: DownloadEvent.self, bufferingPolicy: policy)
        let producer = Task {
            for percent in [33, 66, 100] {
                continuation.yield(.progress(percent))
                await Task.yield()  // read the next chunk
            }
            continuation.yield(.finished)
            continuation.finish()
        }
        return (stream, producer)
    }

    static func run(_ clock: any Clock<Duration>, fixed: Bool) async throws {
        // Buggy: .bufferingOldest(1) keeps a stale progress event and drops newer ones — including
        // .finished — whenever the UI is still busy rendering.
        // Fixed: .bufferingNewest(1) may skip intermediate progress but always keeps the latest event.
        let (events, producer) = downloadEvents(policy: fixed ? .bufferingNewest(1) : .bufferingOldest(1))
        let view = ProgressView()
        for await event in events {
            await view.render(event)
        }
        await producer.value
        let rendered = await view.rendered
        if rendered.last != .finished {
            throw CaseFailed("UI never saw .finished; it rendered \(rendered)")
        }
    }
}

// MARK: - mergedStreamFinishedByFirstProducer

enum MergedFeedCase {
    /// Buggy: each source task finishes the shared continuation when *it* is done, so the shorter
    /// source ends the stream and the rest of the longer one is dropped.
    static func mergeBuggy(_ sources: [[String]]) -> (AsyncStream<String>, [Task<Void, Never>]) {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        let tasks = sources.map { source in
            Task {
                for item in source {
                    await Task.yield()
                    continuation.yield(item)
                }
                continuation.finish()
            }
        }
        return (stream, tasks)
    }

    /// Fixed: the stream is finished once, after every source is done.
    static func merge(_ sources: [[String]]) -> (AsyncStream<String>, [Task<Void, Never>]) {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        let task = Task {
            await withTaskGroup(of: Void.self) { group in
                for source in sources {
                    group.addTask {
                        for item in source {
                            await Task.yield()
                            continuation.yield(item)
                        }
                    }
                }
            }
            continuation.finish()
        }
        return (stream, [task])
    }

    static func run(_ clock: any Clock<Duration>, fixed: Bool) async throws {
        let sources = [["inbox-1"], ["sent-1", "sent-2"]]
        let (feed, tasks) = fixed ? merge(sources) : mergeBuggy(sources)
        var received: [String] = []
        for await item in feed { received.append(item) }
        for task in tasks { await task.value }
        if received.count != 3 {
            throw CaseFailed("merged feed ended early with \(received)")
        }
    }
}

// MARK: - hubSubscriberRegisteredAfterFirstPost

/// A broadcast hub: each subscriber gets its own AsyncStream; post() yields to current subscribers.
actor EventHub {
    private var subscribers: [AsyncStream<String>.Continuation] = []
    private var finished = false

    func subscribe() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        if finished { continuation.finish() } else { subscribers.append(continuation) }
        return stream
    }

    func post(_ event: String) {
        for subscriber in subscribers { subscriber.yield(event) }
    }

    func finish() {
        finished = true
        for subscriber in subscribers { subscriber.finish() }
        subscribers = []
    }
}

enum HubCase {
    static func run(_ clock: any Clock<Duration>, fixed: Bool) async throws {
        let hub = EventHub()
        let listener: Task<[String], Never>
        if fixed {
            // Fixed: subscribe first, then hand the stream to the consuming task.
            let stream = await hub.subscribe()
            listener = Task {
                var seen: [String] = []
                for await event in stream { seen.append(event) }
                return seen
            }
        } else {
            // Buggy: the consuming task subscribes itself; it may not have done so when post() runs.
            listener = Task {
                var seen: [String] = []
                for await event in await hub.subscribe() { seen.append(event) }
                return seen
            }
        }
        await hub.post("session-started")
        await hub.finish()
        let seen = await listener.value
        if seen != ["session-started"] {
            throw CaseFailed("listener saw \(seen); the event was posted before it subscribed")
        }
    }
}

// MARK: - taskGroupResultsAssumedOrdered

enum PagedFetchCase {
    static func fetchPage(_ number: Int) async -> String {
        for _ in 0..<(number % 2 == 0 ? 2 : 1) { await Task.yield() }  // varying latency
        return "page-\(number)"
    }

    /// Buggy: appends pages in completion order.
    static func loadAllBuggy(_ count: Int) async -> [String] {
        await withTaskGroup(of: String.self) { group in
            for number in 0..<count {
                group.addTask { await fetchPage(number) }
            }
            var pages: [String] = []
            for await page in group { pages.append(page) }
            return pages
        }
    }

    /// Fixed: each child returns its index; results are placed by index.
    static func loadAll(_ count: Int) async -> [String] {
        await withTaskGroup(of: (Int, String).self) { group in
            for number in 0..<count {
                group.addTask { (number, await fetchPage(number)) }
            }
            var pages = Array(repeating: "", count: count)
            for await (number, page) in group { pages[number] = page }
            return pages
        }
    }

    static func run(_ clock: any Clock<Duration>, fixed: Bool) async throws {
        let pages = fixed ? await loadAll(3) : await loadAllBuggy(3)
        if pages != ["page-0", "page-1", "page-2"] {
            throw CaseFailed("pages came back as \(pages)")
        }
    }
}
