import Dispatch
import Foundation
import SchedulerKit
import TestSupport
import Testing

@Suite struct TaskQueueTests {
    /// Many producers race one consumer that keeps giving ownership back: every task runs exactly once, in order per
    /// producer, and never two at a time.
    @Test func producersRacingOwnershipHandOffLoseNothing() {
        let pool = ThreadPool(threadCount: 2, name: "hand-off-race")
        defer { pool.shutdown() }
        let scheduler = pool.makeScheduler(name: "contended")
        let producers = 6
        let perProducer = 20_000
        let last = Shared<[Int]>(Array(repeating: -1, count: producers))
        let disorder = Counter()
        let inside = Counter()
        let overlaps = Counter()
        let ran = Counter()
        DispatchQueue.concurrentPerform(iterations: producers) { producer in
            for i in 0..<perProducer {
                scheduler.schedule {
                    if inside.increment() != 1 { overlaps.increment() }
                    last.update { last in
                        if last[producer] != i - 1 { disorder.increment() }
                        last[producer] = i
                    }
                    ran.increment()
                    inside.decrement()
                }
                // Let the worker drain the queue dry and hand it back often.
                if i % 1_000 == 0 { pause(milliseconds: 0) }
            }
        }
        #expect(eventually { ran.value == producers * perProducer })
        #expect(overlaps.value == 0)
        #expect(disorder.value == 0)
    }

    /// Workers are named `pool-<name>-<n>`, cut to Linux's 15 bytes in the middle so the number stays.
    @Test func workersCarryTheirPoolsName() throws {
        func names() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []).compactMap {
                (try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }
        let short = ThreadPool(threadCount: 2, name: "named")
        let long = ThreadPool(threadCount: 2, name: "a-rather-long-pool-name")
        defer {
            short.shutdown()
            long.shutdown()
        }
        #expect(
            eventually {
                Set(["pool-named-0", "pool-named-1", "pool-a-rather-0", "pool-a-rather-1"]).isSubset(of: names())
            },
            "threads: \(names())")
    }

    /// Once `shutdown()` has begun, no task starts except one a worker was already starting: thousands of tasks
    /// from 4 threads onto 4 schedulers, shutdown from a fifth thread in the middle, 10 times. The pool used to finish
    /// the batch a worker had taken (up to 128 tasks, 101 to 246 seen after `shutdown()`).
    @Test func nothingStartsOnceShutdownHasBegun() {
        for round in 0..<10 {
            let pool = ThreadPool(threadCount: 2, name: "shutdown-\(round)")
            let schedulers = (0..<4).map { pool.makeScheduler(name: "s\($0)") }
            let startedLate = Shared<[UInt: Int]>([:])
            let ran = Counter()
            let go = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                go.wait()
                usleep(UInt32.random(in: 200...2_000))
                pool.shutdown()
            }
            DispatchQueue.concurrentPerform(iterations: 4) { producer in
                if producer == 0 { go.signal() }
                for _ in 0..<2_500 {
                    schedulers[producer].schedule {
                        if pool.isShutDown {
                            startedLate.update {
                                $0[UInt(bitPattern: Int(bitPattern: pthread_self())), default: 0] += 1
                            }
                        }
                        ran.increment()
                    }
                }
            }
            #expect(eventually { pool.isShutDown })
            pause(milliseconds: 20)
            let worst = startedLate.value.values.max() ?? 0
            #expect(worst <= 1, "round \(round): \(startedLate.value) tasks started after shutdown per thread")
            #expect(startedLate.value.count <= pool.threadCount)
        }
    }
}
