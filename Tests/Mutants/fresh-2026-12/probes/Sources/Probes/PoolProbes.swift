import Dispatch
import Foundation
import SchedulerKit

// 08: "Work pushed during the turn ... waits for the next turn, behind the other ready schedulers" (ThreadPool design;
// Docs/Schedulers.md: "a busy scheduler takes its turn behind the others that are ready (fair sharing, S6)").
func probePoolTurnBoundary() {
    let pool = ThreadPool(threadCount: 1, name: "turns")
    let blocker = pool.makeScheduler(name: "blocker")
    let a = pool.makeScheduler(name: "a")
    let b = pool.makeScheduler(name: "b")
    let log = Box<[String]>([])
    let started = DispatchSemaphore(value: 0)
    let gate = DispatchSemaphore(value: 0)
    blocker.schedule {
        started.signal()
        gate.wait()
    }
    started.wait()
    @Sendable func chain(_ step: Int) {
        log.update { $0.append("a\(step)") }
        if step < 4 { a.schedule { chain(step + 1) } }
    }
    a.schedule { chain(1) }
    b.schedule { log.update { $0.append("b1") } }
    gate.signal()
    _ = wait(upTo: .seconds(2)) { log.value.count == 5 }
    let order = log.value.joined(separator: " ")
    verdict(order == "a1 b1 a2 a3 a4", "order on a 1-thread pool: \(order) (expected a1 b1 a2 a3 a4)")
    pool.shutdown()
}

// 09: a producer that sees a live spinner does not signal a sleeper; the spinner must then take the work. Work
// scheduled while the worker spins after a task (0 to 80 µs after it ended) must run, and shutdown() must return.
func probeSpinnerRecheck() {
    var pool = ThreadPool(threadCount: 1, name: "spin")
    var scheduler = pool.makeScheduler(name: "spin")
    let trials = 500
    var stuck = 0
    for _ in 0..<trials {
        let ran = Box(false)
        scheduler.schedule { ran.value = true }
        let deadline = ContinuousClock.now + .milliseconds(300)
        while !ran.value && ContinuousClock.now < deadline {}
        if !ran.value {
            stuck += 1
            pool = ThreadPool(threadCount: 1, name: "spin")  // the stuck one is left behind
            scheduler = pool.makeScheduler(name: "spin")
            continue
        }
        let pause = ContinuousClock.now + .microseconds(Int.random(in: 0...80))
        while ContinuousClock.now < pause {}
    }
    verdict(stuck == 0, "work scheduled 0-80 µs after a task ended never ran (300 ms): \(stuck) of \(trials) trials")
    var hung = 0
    for _ in 0..<20 {
        let ran = Box(false)
        scheduler.schedule { ran.value = true }
        while !ran.value {}
        let pause = ContinuousClock.now + .microseconds(Int.random(in: 0...40))
        while ContinuousClock.now < pause {}
        let finished = DispatchSemaphore(value: 0)
        let stopping = pool
        Thread {
            stopping.shutdown()
            finished.signal()
        }.start()
        if finished.wait(timeout: .now() + .seconds(1)) == .timedOut { hung += 1 }
        pool = ThreadPool(threadCount: 1, name: "spin")
        scheduler = pool.makeScheduler(name: "spin")
    }
    verdict(hung == 0, "shutdown() 0-40 µs after a task ended did not return within 1 s: \(hung) of 20 pools")
}

// 10: makeConcurrentScheduler: "up to `width` of its tasks at once on this pool's workers (default: all of them)".
func probeConcurrentDefaultWidth() {
    let pool = ThreadPool(threadCount: 4, name: "wide")
    let scheduler = pool.makeConcurrentScheduler(name: "wide")
    verdict(scheduler.width == 4, "default width on a 4-thread pool: \(scheduler.width)")
    let arrived = Box(0)
    let sawAll = Box(0)
    for _ in 0..<4 {
        scheduler.schedule {
            arrived.update { $0 += 1 }
            if wait(upTo: .milliseconds(500), until: { arrived.value == 4 }) { sawAll.update { $0 += 1 } }
        }
    }
    _ = wait(upTo: .seconds(3)) { arrived.value == 4 }
    usleep(100_000)
    verdict(sawAll.value == 4, "4 tasks that wait for each other: \(sawAll.value) of 4 saw all 4 running at once")
    pool.shutdown()
}

// 11: a concurrent scheduler's slot "runs queued tasks one after another, at most a batch of them, and then goes to
// the back of the FIFO": every queued task runs.
func probeConcurrentSlotLeak() {
    let pool = ThreadPool(threadCount: 2, name: "slots")
    let scheduler = pool.makeConcurrentScheduler(name: "slots", width: 1)
    let gate = DispatchSemaphore(value: 0)
    let started = DispatchSemaphore(value: 0)
    let ran = Box(0)
    scheduler.schedule {
        started.signal()
        gate.wait()
    }
    started.wait()
    let count = 300
    for _ in 0..<count { scheduler.schedule { ran.update { $0 += 1 } } }
    gate.signal()
    _ = wait(upTo: .seconds(2)) { ran.value == count }
    verdict(ran.value == count, "\(count) tasks queued behind a blocked one on width 1: \(ran.value) ran")
    let late = Box(false)
    scheduler.schedule { late.value = true }
    _ = wait(upTo: .seconds(1)) { late.value }
    verdict(late.value, "a task scheduled afterwards ran: \(late.value)")
    pool.shutdown()
}
