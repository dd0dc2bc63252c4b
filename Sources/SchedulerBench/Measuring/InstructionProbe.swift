import Foundation

/// The child that valgrind counts: one backend's schedule path and run path, each in a phase of its own.
///
/// The probe warms the backend up with a round as large as the largest counted one (first-use allocations of the
/// runtime and the backend, and whatever threads Dispatch's global pool grows to), then runs two rounds of `tasks`
/// and `2 × tasks` empty tasks. In each round, `schedulePhase` submits every task while the lane is held by
/// a gate (nothing runs yet), and `runPhase` opens the gate and waits until every task has run. callgrind dumps the
/// instructions of each phase as it leaves it (`InstructionCount` runs it so), and the difference between the two
/// rounds, divided by `tasks`, is what one more task costs on each path: what every round does once (opening the
/// gate, waking a worker, spinning before sleep) cancels out.
package enum InstructionProbe {
    /// What callgrind must match: the two phase functions, by the words their symbols contain. Neither defines a
    /// closure (a closure's symbol would contain its function's name and match too).
    package static let phasePattern = "*InstructionProbe*countedPhase*"

    /// The child's work; returns when both rounds have run.
    package static func run(backend: Backend, tasks: Int) {
        let lanes = backend.instance()
        defer { lanes.shutdown() }
        let lane = lanes.lane("probe")
        let gated = backend.handsOff
        for count in [2 * tasks, tasks, 2 * tasks] {
            let done = Countdown(count)
            let gate = gated ? LaneGate() : nil
            gate?.close(lane)
            countedPhaseOfScheduling(lane, count: count, work: { done.tick() })
            countedPhaseOfRunning(lane, gate: gate, done: done)
            countedPhaseOfSettling()
        }
    }

    /// How long the process sits idle after each round, so that threads winding down (a worker spinning before it
    /// sleeps, Dispatch parking its threads) do so here, in a dump of their own, not in the next round's.
    static let settling: Duration = .milliseconds(200)

    @inline(never)
    static func countedPhaseOfSettling() {
        Thread.sleep(
            forTimeInterval: Double(settling.components.attoseconds) / 1e18 + Double(settling.components.seconds))
    }

    @inline(never)
    static func countedPhaseOfScheduling(_ lane: any Lane, count: Int, work: @escaping @Sendable () -> Void) {
        for _ in 0..<count { lane.submit(work) }
    }

    @inline(never)
    static func countedPhaseOfRunning(_ lane: any Lane, gate: LaneGate?, done: Countdown) {
        gate?.open()
        lane.drain()
        done.wait()
    }
}
