#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starts a joinable pthread named `name` that runs `body`.
func startThread(name: String, _ body: @escaping @Sendable () -> Void) -> pthread_t {
    final class Start: Sendable {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }
    let start = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
    var thread = pthread_t()
    let rc = pthread_create(
        &thread, nil,
        { context in
            let start = Unmanaged<Start>.fromOpaque(context!).takeRetainedValue()
            nameThisThread(start.name)
            start.body()
            return nil
        }, start)
    precondition(rc == 0, "ThreadPool: pthread_create failed with \(rc)")
    return thread
}

/// The longest thread name Linux keeps (16 bytes with the terminating zero).
private let threadNameLimit = 15

/// Names the calling thread, so that a debugger, a profiler or /proc/<pid>/task/*/comm shows whose worker it is.
/// Linux keeps 15 bytes of a name: the middle (the pool's name) is cut so that the worker's number stays.
/// Exposed (SPI `Threads`) to SchedulerKit's other targets, whose threads name themselves the same way.
@_spi(Threads) public func nameThisThread(_ name: String) {
    let limit = threadNameLimit
    let number = name.lastIndex(of: "-").map { String(name[$0...]) } ?? ""
    var prefix = String(name.dropLast(number.count))
    while prefix.utf8.count + number.utf8.count > limit && !prefix.isEmpty { prefix.removeLast() }
    let kept = prefix + number
    #if canImport(Glibc)
        // Glibc's pthread_setname_np is a GNU extension Swift does not import; the kernel takes the name from here.
        let file = open("/proc/thread-self/comm", O_WRONLY)
        guard file >= 0 else { return }
        _ = kept.withCString { write(file, $0, strlen($0)) }
        close(file)
    #else
        _ = kept.withCString { pthread_setname_np($0) }
    #endif
}
