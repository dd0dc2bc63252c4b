import Dispatch
import Foundation
import SchedulerBench
import SchedulerConformance
import SchedulerKit
import ToolSupport

/// Instructions per task on a backend's schedule path and run path, counted by valgrind's callgrind: the same on
/// every run of the same build (no hardware counters needed), so a regression of a few instructions shows.
///
/// `bench` runs ``InstructionProbe`` in a child under callgrind, with jemalloc preloaded as in the timed runs, and a
/// dump of the counts each time a phase function returns. The schedule path is everything the process executes
/// while the producer submits tasks to a held lane; the run path, everything it executes from opening the lane until
/// the last task has run (all threads: the worker's dequeue, the current scheduler, the task, the hand-back). Each is
/// the difference between a round of `2 × tasks` and one of `tasks`, divided by `tasks`.
package struct InstructionCount: Sendable, Equatable {
    package var backend: BackendID
    package var schedule: Double
    package var run: Double
    /// Estimated cycles per task on each path, from callgrind's cache simulation (`EstimatedCycles`): counted on
    /// single-thread backends only, where no other thread's timing moves the caches. Nil elsewhere.
    package var scheduleCycles: Double?
    package var runCycles: Double?

    package enum Failure: Error, CustomStringConvertible {
        case valgrindMissing
        case probeFailed(BackendID, String)

        package var description: String {
            switch self {
            case .valgrindMissing:
                "valgrind is not installed: run scripts/setup.sh (or apt-get install -y valgrind)"
            case .probeFailed(let backend, let why):
                "the instruction probe of \(backend) failed under valgrind (\(why))"
            }
        }
    }

    /// A backend whose counts do not grow linearly with the tasks, with what was seen.
    package struct NotLinear: Sendable, Equatable {
        package var backend: BackendID
        package var reason: String
    }

    /// What one callgrind run of the probe measured.
    struct ProbeRun: Equatable {
        var schedule: Double
        var run: Double
        var scheduleCycles: Double? = nil
        var runCycles: Double? = nil
        /// Each phase grows linearly with the tasks: its fixed part (what a round of `2 × tasks` costs less than two
        /// rounds of `tasks`) is small, and the warm-up round's run phase matches the counted one of the same size.
        var isLinear: Bool
    }

    /// Two runs of the probe that differ by less than this agree.
    static let agreement = 0.005
    /// A phase's fixed part, and the difference between two rounds of the same size, may be this fraction of the
    /// larger round, or two instructions per task (an inline lane's run phase is nearly empty), before the counts are
    /// not per task.
    static let linearity = 0.05
    /// jemalloc purges dirty pages as time passes; under valgrind time passes 50 times slower, so purges would land
    /// at different allocations from run to run. Off for the probe.
    static let probeMallocConf = "dirty_decay_ms:-1,muzzy_decay_ms:-1"

    /// Counts every countable backend of `backends` on `executable` (default: this `bench`; `bench ab` counts the
    /// baseline's build too); `log` hears of each.
    package static func measure(
        _ backends: [Backend], launcher: any ChildLauncher, executable: String? = nil,
        log: (String) -> Void
    ) throws -> (counts: [InstructionCount], notLinear: [NotLinear]) {
        guard let valgrind = Tool.find("valgrind") else { throw Failure.valgrindMissing }
        let scratch = try ScratchFolder("instructions")
        defer { scratch.remove() }
        let binary = try readableBinary(of: executable ?? Tool.currentExecutable(), in: scratch.url)
        var settings = Relaunch.preloadedEnvironment()  // the probe must not re-execute itself under valgrind
        settings["MALLOC_CONF"] = probeMallocConf
        let environment = settings
        let countable = backends.filter(InstructionProbe.countable)
        let results = Locked([BackendID: Result<[ProbeRun], any Error>]())
        // One probe at a time: two valgrinds side by side stretch each other's time, and where timing decides how
        // threads meet (NIO's loop) the counts then move by a few percent.
        for index in countable.indices {
            let backend = countable[index]
            let outcome = Result { () throws -> [ProbeRun] in
                var runs: [ProbeRun] = []
                func probe() throws {
                    let folder = scratch.url.appendingPathComponent("\(backend.id.rawValue)-\(runs.count)")
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                    let prefix =
                        [
                            valgrind, "--tool=callgrind", "--callgrind-out-file=\(folder.path)/callgrind.%p",
                            "--dump-after=\(InstructionProbe.phasePattern)",
                        ] + (EstimatedCycles.simulated(backend) ? EstimatedCycles.cacheSimulation : [])
                    do {
                        try ChildProcess.run(
                            .probeInstructions(backend: backend.id, tasks: InstructionProbe.tasks(backend.id)),
                            launcher: launcher,
                            executable: binary, prefix: prefix, environment: environment, captureError: true)
                    } catch {
                        throw Failure.probeFailed(backend.id, "\(error)")
                    }
                    let totals = try phaseTotals(in: folder)
                    runs.append(
                        try probeRun(
                            totals.map(\.instructions), cycles: totals.map(\.estimatedCycles), backend: backend.id,
                            tasks: InstructionProbe.tasks(backend.id)))
                }
                while runs.count < maximumRuns && agreeing(runs) == nil { try probe() }
                return runs
            }
            results.withLock { $0[backend.id] = outcome }
        }
        var counts: [InstructionCount] = []
        var notLinear: [NotLinear] = []
        for backend in countable {
            let runs = try results.withLock { $0[backend.id]! }.get()
            guard let agreed = agreeing(runs) else {
                let seen = runs.map {
                    "\(Format.short($0.schedule))/\(Format.short($0.run))\($0.isLinear ? "" : " not linear")"
                }
                let reason =
                    "no two of \(runs.count) runs under callgrind agreed and grew linearly with the tasks (schedule/run "
                    + "per task: \(seen.joined(separator: ", "))): how its threads meet depends on timing"
                log("\(backend.id): not countable, \(reason)")
                notLinear.append(NotLinear(backend: backend.id, reason: reason))
                continue
            }
            let count = InstructionCount(
                backend: backend.id, schedule: Statistics.median(agreed.map(\.schedule)),
                run: Statistics.median(agreed.map(\.run)),
                scheduleCycles: EstimatedCycles.agreed(agreed.map(\.scheduleCycles)),
                runCycles: EstimatedCycles.agreed(agreed.map(\.runCycles)))
            log(
                "\(backend.id): \(Format.short(count.schedule)) instructions to schedule, \(Format.short(count.run)) to run a task "
                    + "(\(runs.count) runs under callgrind, 2 agreeing)")
            counts.append(count)
        }
        return (counts, notLinear)
    }

    /// Runs of the probe per backend at the most, before it is declared not countable.
    static let maximumRuns = 4

    /// The first two linear runs that agree, if any.
    static func agreeing(_ runs: [ProbeRun]) -> [ProbeRun]? {
        let linear = runs.filter(\.isLinear)
        for (index, first) in linear.enumerated() {
            if let second = linear.dropFirst(index + 1).first(where: { close(first, $0) }) { return [first, second] }
        }
        return nil
    }

    static func close(_ a: ProbeRun, _ b: ProbeRun) -> Bool {
        func near(_ x: Double, _ y: Double) -> Bool { abs(x - y) <= agreement * max(abs(x), abs(y)) }
        return near(a.schedule, b.schedule) && near(a.run, b.run)
    }

    /// The per-task counts of one probe run. Dumps, in order: warm-up (schedule, run, settle), then the round of
    /// `tasks`, then the round of `2 × tasks`, each (schedule, run, settle).
    static func probeRun(_ totals: [Int64], cycles: [Int64?] = [], backend: BackendID, tasks: Int) throws -> ProbeRun {
        guard totals.count >= 9 else {
            throw Failure.probeFailed(backend, "callgrind wrote \(totals.count) phase dumps, not 9")
        }
        let (warmRun, smallSchedule, smallRun, bigSchedule, bigRun) = (
            totals[1], totals[3], totals[4], totals[6], totals[7]
        )
        func small(_ difference: Int64, of round: Int64) -> Bool {
            Double(abs(difference)) <= max(linearity * Double(abs(round)), Double(2 * tasks))
        }
        let linear =
            small(warmRun - bigRun, of: bigRun) && small(2 * smallRun - bigRun, of: bigRun)
            && small(2 * smallSchedule - bigSchedule, of: bigSchedule)
        // The same differences of estimated cycles, when every dump has them.
        let estimated = cycles.count == totals.count ? cycles.compactMap { $0 } : []
        let perTask = { (big: Int, small: Int) -> Double? in
            // A path with nothing per task can come out a hair below 0 (the first round missed more): it costs 0.
            estimated.count == totals.count ? max(0, Double(estimated[big] - estimated[small]) / Double(tasks)) : nil
        }
        return ProbeRun(
            schedule: Double(bigSchedule - smallSchedule) / Double(tasks),
            run: Double(bigRun - smallRun) / Double(tasks),
            scheduleCycles: perTask(6, 3), runCycles: perTask(7, 4),
            isLinear: linear)
    }

    /// What one phase dump counted: instructions, and estimated cycles when the cache was simulated.
    struct PhaseTotals {
        var instructions: Int64
        var estimatedCycles: Int64?
    }

    /// The totals of the phase dumps, in dump order (the final dump, at program end, is left out).
    static func phaseTotals(in folder: URL) throws -> [PhaseTotals] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        let dumps = names.compactMap { name -> (Int, String)? in
            guard let number = name.split(separator: ".").last.flatMap({ Int($0) }),
                name.split(separator: ".").count == 3
            else { return nil }
            return (number, name)
        }.sorted { $0.0 < $1.0 }
        return try dumps.map { _, name in
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            let lines = text.split(separator: "\n")
            // "events: Ir I1mr ILmr …" names the columns of "totals: …".
            let events = lines.first { $0.hasPrefix("events:") }.map {
                $0.dropFirst("events:".count).split(separator: " ").map(String.init)
            }
            guard let line = lines.first(where: { $0.hasPrefix("totals:") }) else {
                throw BenchError.failed("\(name): a callgrind dump without a totals line")
            }
            // callgrind leaves out trailing zeros: "totals: 80 29 19" under nine events.
            let names = events ?? ["Ir"]
            let values = line.dropFirst("totals:".count).split(separator: " ").compactMap { Int64($0) }
            let padded = values + Array(repeating: 0, count: max(0, names.count - values.count))
            let counted = Dictionary(zip(names, padded), uniquingKeysWith: { first, _ in first })
            guard let instructions = counted["Ir"] else {
                throw BenchError.failed("\(name): a callgrind dump without an instruction total")
            }
            return PhaseTotals(instructions: instructions, estimatedCycles: EstimatedCycles.estimate(counted))
        }
    }

    /// A copy of this executable without debug information: valgrind 3.19 cannot read the DWARF that Swift 6's
    /// toolchain writes and gives up. Symbols stay, and they are all the phase pattern needs.
    static func readableBinary(of executable: String, in folder: URL) throws -> String {
        let copy = folder.appendingPathComponent("bench").path
        guard let objcopy = Tool.find("objcopy") ?? Tool.find("llvm-objcopy") else {
            throw BenchError.machine("objcopy is missing (binutils); install it with apt-get install -y binutils")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: objcopy)
        process.arguments = ["--strip-debug", executable, copy]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError.failed("\(objcopy) could not strip a copy of bench")
        }
        return copy
    }
}

/// Programs found on the PATH.
package enum Tool {
    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// The path of this process's executable.
    package static func currentExecutable() throws -> String {
        try FileManager.default.destinationOfSymbolicLink(atPath: ChildProcess.currentExecutable)
    }
}
