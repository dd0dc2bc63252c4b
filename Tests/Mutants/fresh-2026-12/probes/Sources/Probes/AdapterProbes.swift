import Dispatch
import Foundation
import NIOCore
import NIOPosix
import SchedulerKit
import SchedulerKitNIO

/// Steps of one scheduleRecursive on a NIO thread pool of 4 threads: the first asks for 3 more at once.
func recursionOverlapOnNIOPool() {
    let pool = NIOThreadPool(numberOfThreads: 4)
    pool.start()
    let scheduler = NIOThreadPoolScheduler(pool: pool)
    print("   NIOThreadPoolScheduler on 4 threads: traits [\(scheduler.traits)]")
    let overlap = Overlap()
    let steps = Box(0)
    scheduler.scheduleRecursive { reschedule in
        overlap.enter()
        let step = steps.update {
            $0 += 1
            return $0
        }
        if step == 1 { for _ in 0..<3 { reschedule() } }
        usleep(20_000)
        overlap.leave()
    }
    _ = wait(upTo: .seconds(2)) { steps.value >= 4 }
    usleep(100_000)
    verdict(overlap.most == 1, "steps of one scheduleRecursive at once at most: \(overlap.most) (\(steps.value) steps)")
    try? pool.syncShutdownGracefully()
}

// 32: "Serial only on a pool of one thread (one FIFO queue, one worker), and the traits say so".
func probeNIOPoolSerialTrait() {
    let pool = NIOThreadPool(numberOfThreads: 4)
    let scheduler = NIOThreadPoolScheduler(pool: pool)
    verdict(!scheduler.traits.contains(.serial), "4 threads: traits [\(scheduler.traits)] (must not claim serial)")
    let single = NIOThreadPool(numberOfThreads: 1)
    verdict(
        NIOThreadPoolScheduler(pool: single).traits.contains(.serial),
        "1 thread: traits [\(NIOThreadPoolScheduler(pool: single).traits)]")
    recursionOverlapOnNIOPool()
}

// 29: shutdown(): "running items finish ... It waits until the pool's threads have ended and the queued items have been
// told, except when called from one of the pool's tasks".
func probeNIOPoolShutdownWaits() {
    let pool = NIOThreadPool(numberOfThreads: 1)
    pool.start()
    let scheduler = NIOThreadPoolScheduler(pool: pool)
    let started = DispatchSemaphore(value: 0)
    let finished = Box(false)
    scheduler.schedule {
        started.signal()
        usleep(200_000)
        finished.value = true
    }
    let queued = (0..<5).map { _ in scheduler.schedule {} }
    started.wait()
    scheduler.shutdown()
    let runningFinished = finished.value
    let told = queued.filter(\.isCancelled).count
    verdict(runningFinished, "the running item had finished when shutdown() returned: \(runningFinished)")
    verdict(told == 5, "queued items told .cancelled when shutdown() returned: \(told) of 5")
    usleep(300_000)
}

// 30: isShutDown "says whether `shutdown()` was called on this scheduler or the pool has refused its work".
func probeNIOPoolIsShutDown() {
    let pool = NIOThreadPool(numberOfThreads: 1)
    pool.start()
    let scheduler = NIOThreadPoolScheduler(pool: pool)
    verdict(!scheduler.isShutDown, "before shutdown(): isShutDown \(scheduler.isShutDown)")
    scheduler.shutdown()
    verdict(scheduler.isShutDown, "after shutdown(): isShutDown \(scheduler.isShutDown)")
}

// 31: delayed work on an event loop: "The handle's `cancel()` calls NIO's `Scheduled.cancel()` and returns true unless
// the adapter saw the task start".
func probeNIODelayedCancel() {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let scheduler = EventLoopScheduler(eventLoop: group.next())
    let ran = Box(false)
    let handle = scheduler.schedule(after: .milliseconds(50)) { ran.value = true }
    let cancelled = handle.cancel()
    usleep(250_000)
    verdict(cancelled, "cancel() 50 ms before the deadline returned \(cancelled)")
    verdict(!ran.value, "the work ran anyway: \(ran.value)")
    try? group.syncShutdownGracefully()
}
