import SchedulerExplorer
import Testing

@_spi(Explorer) @testable import SchedulerKit

/// The one virtual-time engine, seen through both schedulers built on it: the promises that used to differ between
/// `TestScheduler` and `ExploringScheduler` (what drains, whether a cancelled entry moves the clock) now hold for both,
/// and the ready list a strategy chooses from answers rank and position as a plain sorted array would.
@Suite struct VirtualTimeEngineTests {
    static let drivers: [@Sendable () -> any VirtualTimeDriver] = [
        { TestScheduler() }, { ExploringScheduler(strategy: .firstInFirstOut) },
        { ExploringScheduler(strategy: .random, seed: 3) }, { ExploringScheduler(strategy: .pct(depth: 3, steps: 50)) },
    ]

    @Test("A cancelled sleeper's deadline is never where run() leaves the clock", arguments: 0..<drivers.count)
    func cancelledWorkNeverMovesTheClock(_ index: Int) {
        let scheduler = Self.drivers[index]()
        let ran = Locked(0)
        scheduler.schedule(at: SchedulerTime(nanoseconds: 1_000)) { ran.withLock { $0 += 1 } }
        let dead = scheduler.schedule(at: SchedulerTime(nanoseconds: 3_600_000_000_000)) { ran.withLock { $0 += 100 } }
        #expect(dead.cancel())
        #expect(scheduler.run(maxSteps: 10) == .drained(steps: 1), "\(type(of: scheduler))")
        #expect(scheduler.now == SchedulerTime(nanoseconds: 1_000), "\(type(of: scheduler))")
        #expect(ran.withLock { $0 } == 1)
    }

    @Test("run(maxSteps:) says the same on both: stopped early with what is left, drained when nothing is")
    func runOutcomesAgree() {
        for make in Self.drivers {
            let scheduler = make()
            for _ in 0..<5 { scheduler.schedule {} }
            #expect(scheduler.run(maxSteps: 3) == .stoppedEarly(steps: 3, pending: 2), "\(type(of: scheduler))")
            #expect(scheduler.run(maxSteps: 3) == .drained(steps: 2), "\(type(of: scheduler))")
            #expect(scheduler.run(maxSteps: 0) == .drained(steps: 0), "\(type(of: scheduler))")
        }
    }

    @Test("Equal ticks of two repetitions run in creation order, every tick an advance passes over")
    func repeatingTicksKeepTheirPlace() {
        let scheduler = ExploringScheduler(strategy: .firstInFirstOut)
        let order = Locked<[Character]>([])
        scheduler.schedule(at: .zero, every: .milliseconds(10), leeway: .zero) { order.withLock { $0.append("a") } }
        scheduler.schedule(at: .zero, every: .milliseconds(10), leeway: .zero) { order.withLock { $0.append("b") } }
        scheduler.advance(by: .milliseconds(30))
        #expect(String(order.withLock { $0 }) == "abababab")
    }

    @Test("The ready list's ranks and positions match a sorted array's through takes and compactions")
    func readyListMatchesASortedArray() {
        var ready = ReadyList()
        var model: [Int] = []  // the positions held, in order
        var generator = SystemRandomNumberGenerator()
        var appended = 0
        defer { for item in ready.removeAll() { item.work.release() } }
        for round in 0..<4_000 {
            if model.isEmpty || (round % 7 != 0 && Int.random(in: 0..<3, using: &generator) > 0) {
                let position = ready.endPosition
                let work = VirtualWork.once(ScheduledWork {}, timed: false)
                ready.append(
                    ReadyList.Item(deadline: .zero, sequence: UInt64(appended), work: work, carried: .closure, note: 0))
                appended += 1
                model.append(position)
            } else {
                let rank = Int.random(in: 0..<model.count, using: &generator)
                let position = ready.position(ofRank: rank)
                #expect(position == model[rank])
                #expect(ready.rank(ofPosition: position) == rank)
                let item = ready.take(at: position)
                #expect(ready[position] == nil)
                item.work.release()
                model.remove(at: rank)
            }
            #expect(ready.count == model.count)
            if let first = model.first { #expect(ready.position(ofRank: 0) == first) }
        }
    }
}
