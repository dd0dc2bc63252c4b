#if Combine
    import Foundation
    @_spi(Threads) import SchedulerKit
    import Synchronization

    /// A thread that serves its own `RunLoop` until ``stop()``: what Combine's `RunLoop` scheduler needs to run anything
    /// off the main thread.
    ///
    /// A run loop with no source returns from `run` at once, so the thread keeps a timer due in the far future on it.
    /// The thread runs the loop in slices of ``slice`` and checks for `stop()` between them.
    ///
    /// On Linux, `RunLoop.perform` (Combine's `schedule(options:)` on a run loop) does not wake a sleeping loop: the
    /// block waits for the loop's next wake-up, a timer or the end of a slice (measured: 2 s with 2 s slices, 0.04 ms
    /// when a timer was added beside it). The 1 ms slice stands for a loop that some other event wakes that often.
    // @unchecked Sendable: `runLoop` is written once on the new thread before `init` returns (the semaphore orders it) and
    // only read afterwards; `RunLoop`'s `perform` and `add(_:forMode:)` may be called from any thread.
    public final class RunLoopThread: @unchecked Sendable {
        public private(set) var runLoop: RunLoop!
        private let stopped = Atomic<Bool>(false)
        private let finished = DispatchSemaphore(value: 0)
        /// How long one `run(mode:before:)` lasts at most: how late `stop()` may be noticed.
        public static let slice: TimeInterval = 0.001

        public init(name: String) {
            let ready = DispatchSemaphore(value: 0)
            let thread = Thread { [self] in
                // Named from inside, by the kernel's name: on Linux a name set on a `Thread` before `start()` does not
                // reach the thread, and `Thread.current.name = …` from inside is lost when the new thread gets there
                // before `start()` has stored the thread's handle (corelibs Foundation stores it after creating the
                // thread; seen once in CI, where the loop's thread kept the name it inherited from its creator).
                nameThisThread(name)
                runLoop = RunLoop.current
                let keepAlive = Timer(timeInterval: 1e9, repeats: true) { _ in }
                runLoop.add(keepAlive, forMode: .default)
                ready.signal()
                while !stopped.load(ordering: .acquiring) {
                    _ = runLoop.run(mode: .default, before: Date(timeIntervalSinceNow: Self.slice))
                }
                keepAlive.invalidate()
                finished.signal()
            }
            thread.start()
            ready.wait()
        }

        /// Stops the loop and waits until its thread has left it. Work still queued on the loop never runs.
        public func stop() {
            guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
            finished.wait()
        }
    }
#endif
