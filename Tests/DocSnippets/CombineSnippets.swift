// swift-format-ignore-file
// The snippet is Docs/Combine.md's, as written there.
#if Combine
    #if canImport(Combine)
        import Combine
    #else
        import OpenCombine
    #endif
    import SchedulerKit
    import SchedulerKitCombine

    enum CombineSnippets {
        static func receiveAndDebounce(values: some Publisher<Int, Never>, test: TestScheduler) {
let pool = ThreadPool(name: "app")
let debounced = values.receive(on: pool.makeScheduler(name: "ui").combine)   // serial, FIFO, on the pool
    .debounce(for: .milliseconds(300), scheduler: test.combine)            // virtual time in tests
            _ = debounced
        }
    }
#endif
