import Foundation
import SchedulerBench
import SchedulerConformance
import SchedulerKit
import Synchronization
import ToolSupport

/// A known slowdown planted in a backend's work, so that `bench power` can measure how often `bench ab`'s verdicts
/// find a change of a known size (`Docs/Statistics.md`).
///
/// A process started with `BENCH_PLANTED_DELAY=threadpool=5.2,test=2.8` runs every task submitted through those
/// backends' lanes after a spin of that many nanoseconds (on average: a fraction of a nanosecond is spread over the
/// tasks, task i spinning the iterations that bring the total to i × the delay). Both sides of a power trial run the
/// same binary and both are wrapped, one with a delay of 0, so that the only difference between them is the spin:
/// no code layout, no wrapper cost. The actor workloads call the scheduler, not the lane, and are not planted.
package struct PlantedDelay: Sendable {
    static let variable = "BENCH_PLANTED_DELAY"

    /// Nanoseconds per task, per backend.
    let nanoseconds: [BackendID: Double]

    /// The delay this process was started with; empty without the variable.
    static let current: PlantedDelay = {
        guard let text = ProcessInfo.processInfo.environment[variable] else { return PlantedDelay(nanoseconds: [:]) }
        do { return try PlantedDelay(parsing: text) } catch {
            FileHandle.standardError.write(Data("bench: \(error)\n".utf8))
            exit(64)
        }
    }()

    init(nanoseconds: [BackendID: Double]) { self.nanoseconds = nanoseconds }

    init(parsing text: String) throws {
        var delays: [BackendID: Double] = [:]
        for item in text.split(separator: ",") {
            let parts = item.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let value = Double(parts[1]), value >= 0, value.isFinite else {
                throw BenchError.setting(
                    "\(Self.variable) must read backend=nanoseconds,… (e.g. threadpool=5.2), got '\(text)'")
            }
            delays[BackendID(rawValue: String(parts[0]))] = value
        }
        nanoseconds = delays
    }

    /// The variable's value for these delays.
    var environmentValue: String {
        nanoseconds.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue)=\($0.value)" }
            .joined(separator: ",")
    }

    /// Plants the delay this process was started with (``current``) in every backend instance it makes; nothing
    /// without the variable. `bench` calls it first thing, so that a child it starts plants the same delay.
    package static func plantIfAsked() {
        let delay = current
        guard !delay.nanoseconds.isEmpty else { return }
        Backend.laneWrapper.withLock { $0 = { group, backend in delay.wrap(group, of: backend) } }
    }

    /// The backend's lanes, each wrapped with its delay; unchanged when the backend has none.
    func wrap(_ group: LaneGroup, of backend: BackendID) -> LaneGroup {
        guard let delay = nanoseconds[backend] else { return group }
        let iterations = delay / Spin.nanosecondsPerIteration
        return LaneGroup(make: { PlantedLane(group.lane($0), iterationsPerTask: iterations) }, close: group.shutdown)
    }
}

/// A lane whose every task spins first.
final class PlantedLane: Lane {
    private let wrapped: any Lane
    private let iterationsPerTask: Double
    private let submitted = Atomic<Int>(0)

    init(_ wrapped: any Lane, iterationsPerTask: Double) {
        self.wrapped = wrapped
        self.iterationsPerTask = iterationsPerTask
    }

    var scheduler: (any Scheduler)? { wrapped.scheduler }

    /// Iterations of task i: those that bring the total to (i + 1) × the delay, so fractions add up exactly.
    private func nextIterations() -> Int {
        let index = Double(submitted.add(1, ordering: .relaxed).oldValue)
        return Int(((index + 1) * iterationsPerTask).rounded(.down) - (index * iterationsPerTask).rounded(.down))
    }

    func submit(_ work: @escaping @Sendable () -> Void) {
        let iterations = nextIterations()
        wrapped.submit {
            Spin.run(iterations)
            work()
        }
    }

    func submit(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) {
        let iterations = nextIterations()
        wrapped.submit(at: deadline) {
            Spin.run(iterations)
            work()
        }
    }

    func drain() { wrapped.drain() }
}

/// A chain of dependent multiply-adds that the optimizer cannot fold, timed once per process.
enum Spin {
    private static let sink = Atomic<Int>(0)

    @inline(never) static func run(_ iterations: Int) {
        var value = iterations
        for index in 0..<iterations { value = value &* 6_364_136_223_846_793_005 &+ index }
        sink.store(value, ordering: .relaxed)
    }

    /// The fastest of five timings of a million iterations: what one iteration costs when nothing interrupts it.
    static let nanosecondsPerIteration: Double = {
        let iterations = 1_000_000
        let fastest = (0..<5).map { _ in
            let start = DispatchTime.now().uptimeNanoseconds
            run(iterations)
            return Double(DispatchTime.now().uptimeNanoseconds - start)
        }.min()!
        return max(fastest / Double(iterations), 0.01)
    }()
}
