import Dispatch
import Foundation
import NIOCore
import NIOPosix
import SchedulerKit
import SchedulerKitCombine
import SchedulerKitNIO

// Findings in the unmutated code (no patch): each probe prints BUG on the code as it is.

// A: NIOThreadPoolScheduler.shutdown() "waits until the pool's threads have ended ..., except when called from one of
// the pool's tasks (then it returns at once; waiting there would wait for itself)". It tells a pool thread by
// `Schedulers.current`, so a call from a pool thread where another scheduler is current (nested immediate work inside
// one of its own tasks) or where none is (an item submitted to the pool directly) waits for itself for ever.
func probeRealNIOShutdownFromPoolThread() {
    func attempt(
        _ what: String, _ start: (NIOThreadPool, NIOThreadPoolScheduler, @escaping @Sendable () -> Void) -> Void
    ) {
        let pool = NIOThreadPool(numberOfThreads: 2)
        pool.start()
        let scheduler = NIOThreadPoolScheduler(pool: pool)
        let returned = DispatchSemaphore(value: 0)
        start(pool, scheduler) { returned.signal() }
        let done = returned.wait(timeout: .now() + .seconds(2)) == .success
        verdict(done, "shutdown() called \(what) returned within 2 s: \(done)")
    }
    attempt("from one of its own tasks") { _, scheduler, returned in
        scheduler.schedule {
            scheduler.shutdown()
            returned()
        }
    }
    attempt("from immediate work nested in one of its own tasks") { _, scheduler, returned in
        scheduler.schedule {
            Schedulers.immediate.schedule {
                scheduler.shutdown()
                returned()
            }
        }
    }
    attempt("from an item submitted to its pool directly") { pool, scheduler, returned in
        pool.submit { _ in
            scheduler.shutdown()
            returned()
        }
    }
    // The same nesting on SchedulerKit's own pool, whose check is by thread: it returns.
    let pool = ThreadPool(threadCount: 2, name: "nested")
    let scheduler = pool.makeScheduler(name: "nested")
    let returned = DispatchSemaphore(value: 0)
    scheduler.schedule {
        Schedulers.immediate.schedule {
            pool.shutdown()
            returned.signal()
        }
    }
    let done = returned.wait(timeout: .now() + .seconds(2)) == .success
    verdict(done, "for comparison, ThreadPool.shutdown() from immediate work nested in its task returned: \(done)")
}

// B: CombineSchedulerTime.advanced(by:): "Combine's operators add and subtract strides freely, and
// `now.advanced(by: .seconds(.max))` must be a date, not a trap." The stride `.seconds(.max)` itself traps: its
// factory multiplies without a check. Run in a child process so the trap can be seen.
func probeRealStrideSecondsMax() {
    for (child, what) in [
        ("real-b-child-seconds", "now.advanced(by: .seconds(.max))"),
        ("real-b-child-milliseconds", "now.advanced(by: .milliseconds(.max))"),
        ("real-b-child-literal", "now.advanced(by: .init(integerLiteral: .max))"),
    ] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = [child]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try! process.run()
        process.waitUntilExit()
        let trapped = process.terminationReason == .uncaughtSignal
        verdict(
            !trapped,
            "\(what) in a child process: \(trapped ? "trapped (signal \(process.terminationStatus))" : "a date")")
    }
}

func realStrideChild(_ which: String) {
    let now = TestScheduler().combine.now
    let stride: CombineSchedulerTime.Stride =
        switch which {
        case "seconds": .seconds(.max)
        case "milliseconds": .milliseconds(.max)
        default: .init(integerLiteral: .max)
        }
    print(now.advanced(by: stride))
}
