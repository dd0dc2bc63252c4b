import Dispatch
import SchedulerKit

/// Where a clock check runs its sleepers, and how it waits for them.
///
/// Sleepers are tasks with an executor preference: the driver's executor for a virtual clock that has one (an
/// advance then runs them), else a serial executor of the kit's own on a thread of its own, so that no check needs
/// the global cooperative pool, which the test runner's own threads may be blocking.
final class SleeperRoom: Sendable {
    let clock: ClockUnderTest
    let executor: any TaskExecutor
    /// The kit's own thread, when the driver names no executor.
    private let kit: KitThreads?
    /// Sleepers that reached the line just before their sleep.
    let asleep = Counter()

    /// `onTheKitsThread`: the kit's own executor even where the driver names one, for a check whose sleepers must
    /// need nothing of the driver (no advance, no settle) to do what they promise.
    init(_ clock: ClockUnderTest, onTheKitsThread: Bool = false) {
        self.clock = clock
        let driverExecutor = onTheKitsThread ? nil : clock.driver?.executor
        kit = driverExecutor == nil ? KitThreads() : nil
        executor = driverExecutor ?? kit!.executor
    }

    /// Starts a sleeper that sleeps until origin + `deadline`, then runs `woke` with the clock's `now`; a sleep that
    /// throws runs `threw` instead.
    @discardableResult
    func sleeper(
        until deadline: Duration, woke: @escaping @Sendable (Duration) -> Void,
        threw: @escaping @Sendable (any Error) -> Void = { _ in }
    ) -> Task<Void, Never> {
        let clock = clock
        let asleep = asleep
        return Task(executorPreference: executor) {
            asleep.increment()
            do {
                try await clock.sleep(deadline)
                woke(clock.now())
            } catch {
                threw(error)
            }
        }
    }

    /// Lets every sleeper started so far reach its sleep (`count` of them in all) without moving time.
    func settle(_ count: Int) async throws {
        await clock.driver?.settle()
        try await poll("\(count) sleepers to start", timeout: .seconds(10)) { self.asleep.value >= count }
        await clock.driver?.settle()
    }

    func advance(by duration: Duration) async {
        await clock.driver?.advance(duration)
    }

    func close() { kit?.close() }
}
