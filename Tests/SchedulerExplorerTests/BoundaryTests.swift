import SchedulerExplorer
import SchedulerKit
import Testing

/// What the runtime lets an exploring executor control on this toolchain, measured: which ways of starting work keep
/// it inside the exploration (on its scheduler, one job at a time, in the strategy's order) and which leave it.
/// `Docs/Exploring.md` quotes these; a toolchain that changes one fails here first.
@Suite struct BoundaryTests {
    /// Where a piece of the body's work ran: on the exploring scheduler or not.
    static func runsInside(_ body: @escaping @Sendable (Exploration) async -> Bool) async -> (
        inside: Bool?, report: ExplorationReport
    ) {
        let seen = Locked<Bool?>(nil)
        let report = await explore(
            schedules: 1, settings: ExplorationSettings(allowedOutside: ["thread"], outsideWait: .seconds(30))
        ) {
            exploration in
            let inside = await body(exploration)
            seen.withLock { $0 = inside }
        }
        return (seen.withLock { $0 }, report)
    }

    @Test func childTasksAndDefaultActorsStayInside() async {
        let (asyncLet, _) = await Self.runsInside { exploration in
            async let child = Schedulers.current === exploration.scheduler
            return await child
        }
        #expect(asyncLet == true)
        let (group, _) = await Self.runsInside { exploration in
            await withTaskGroup(of: Bool.self) { group in
                group.addTask { Schedulers.current === exploration.scheduler }
                return await group.next()!
            }
        }
        #expect(group == true)
        let (actor, _) = await Self.runsInside { exploration in
            await Where().scheduler() === exploration.scheduler
        }
        #expect(actor == true)
    }

    /// On Swift 6.3 an unstructured `Task { }` does not inherit the task executor preference (it runs on the global
    /// executor), and neither does `Task.detached`: their results come back from outside, which the explorer detects.
    @Test func unstructuredAndDetachedTasksLeaveTheExploration() async {
        for start in [TaskStart.unstructured, .detached] {
            let (inside, report) = await Self.runsInside { exploration in
                switch start {
                case .unstructured: await Task { Schedulers.current === exploration.scheduler }.value
                case .detached: await Task.detached { Schedulers.current === exploration.scheduler }.value
                }
            }
            #expect(inside == false, "\(start)")
            #expect(!report.allowedOutside.isEmpty, "\(start): its result came back from outside, allowed and counted")
        }
    }

    enum TaskStart { case unstructured, detached }
}

private actor Where {
    func scheduler() -> (any Scheduler)? { Schedulers.current }
}
