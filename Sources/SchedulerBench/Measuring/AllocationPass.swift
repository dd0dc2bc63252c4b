import Foundation

/// What an actor workload's allocation pass reports: allocations and size-class bytes of every thread (the caller's,
/// the executor's workers, Swift's cooperative threads) per unit of work, counted exactly by jemalloc's arenas in
/// a process without thread caches (see ``AllThreadCounting``).
public struct AllocationProbe: Sendable {
    public let allocations: MetricSpec
    /// Bytes of the size classes the requests were served from (a 100-byte request counts 112), not requested bytes.
    public let sizeClassBytes: MetricSpec
    let units: @Sendable (Parameters) -> Int
    let prepare: @Sendable (LaneGroup, Parameters) -> ActorLoop

    init(unit: String, units: @escaping @Sendable (Parameters) -> Int,
         prepare: @escaping @Sendable (LaneGroup, Parameters) -> ActorLoop) {
        allocations = MetricSpec("allocs_per_\(unit)", unit: "allocations")
        sizeClassBytes = MetricSpec("size_class_bytes_per_\(unit)", unit: "B (size classes)")
        self.units = units
        self.prepare = prepare
    }

    public var metrics: [MetricSpec] { [allocations, sizeClassBytes] }

    /// Counts on a fresh instance of `backend`, after a warm-up run (first-use allocations of the runtime and the
    /// backend). Each round counts an empty run (starting and awaiting the task: the baseline) and a run of the
    /// workload's units, and reports their difference per unit. Nil unless counting is exact in this process.
    func count(on backend: Backend, _ parameters: Parameters, rounds: Int) -> [String: [Double]]? {
        guard AllThreadCounting.isExact else { return nil }
        let lanes = backend.instance()
        defer { lanes.shutdown() }
        let loop = prepare(lanes, parameters)
        let units = self.units(parameters)
        _ = loop.run(max(1, units / 10))
        var values: [String: [Double]] = [allocations.name: [], sizeClassBytes.name: []]
        for _ in 0..<rounds {
            guard let start = ArenaTotals.read() else { return nil }
            _ = loop.run(0)
            guard let middle = ArenaTotals.read() else { return nil }
            _ = loop.run(units)
            guard let end = ArenaTotals.read() else { return nil }
            let (baseline, measured) = (middle - start, end - middle)
            values[allocations.name]!.append((Double(measured.allocations) - Double(baseline.allocations)) / Double(units))
            values[sizeClassBytes.name]!.append((Double(measured.sizeClassBytes) - Double(baseline.sizeClassBytes)) / Double(units))
        }
        return values
    }
}

/// The allocation pass of a run: after the timed rounds, `bench` starts itself again as a child (hidden subcommand
/// ``subcommand``) with jemalloc preloaded and `MALLOC_CONF=tcache:false`, which counts every actor workload of the
/// run on every backend and prints the per-round values; the parent adds them to its rows. Counting needs no
/// allocator hooks, and the timed rounds keep their thread caches.
public enum AllocationPass {
    public static let subcommand = "count-allocations"

    /// Counted rounds per cell (each a baseline and a full run of the workload's units).
    static func rounds(_ scale: Scale) -> Int { scale == .smoke ? 1 : 3 }

    static let columns = ["workload", "parameters", "backend", "metric", "value"]

    /// The child's work: proves that counts are exact here, counts every (workload, parameters, backend) cell, and
    /// returns the values as CSV (one line per round and metric, full precision).
    public static func countInChild(backendNames: [String], workloadNames: [String], scale: Scale,
                                    log: (String) -> Void) throws -> String {
        let runner = Runner(backends: try BenchRun.backends(backendNames),
                            workloads: try BenchRun.workloads(workloadNames).filter { $0.allocationProbe != nil }, scale: scale)
        do { log(try AllThreadCounting.proveExact()) } catch let error as AllThreadCounting.NotExact { throw BenchError(error.description) }
        var lines = [columns]
        for (workload, parameters, backends) in runner.plan {
            for backend in backends {
                guard let counted = workload.allocationProbe!.count(on: backend, parameters, rounds: rounds(scale)) else {
                    throw BenchError("jemalloc's arena statistics became unreadable while counting \(workload.id) on \(backend.name)")
                }
                for metric in workload.allocationProbe!.metrics {
                    for value in counted[metric.name] ?? [] {
                        lines.append([workload.id, parameters.description, backend.name, metric.name, "\(value)"])
                    }
                }
            }
        }
        return CSV.encode(lines)
    }

    /// The parent's side: runs the child for the runner's actor workloads and returns its counts as observations.
    /// Empty, with a note, when the run has no actor workload, jemalloc is not live here, or the child fails.
    static func run(for runner: Runner, log: (String) -> Void) -> [Observation] {
        let cells = runner.plan.filter { $0.workload.allocationProbe != nil }
        guard !cells.isEmpty else { return [] }
        guard Jemalloc.isLive else {
            log("allocations per actor call, task and round trip (W11–W13) need jemalloc; not counted under this allocator")
            return []
        }
        let started = Date()
        let backends = Set(cells.flatMap { $0.backends.map(\.name) })
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        child.arguments = [subcommand, "--scale", runner.scale.rawValue,
                           "--backend", runner.backends.map(\.name).filter(backends.contains).joined(separator: ","),
                           "--workload", Array(Set(cells.map(\.workload.id))).sorted().joined(separator: ",")]
        var environment = ProcessInfo.processInfo.environment
        let conf = [environment["MALLOC_CONF"], AllThreadCounting.mallocConf].compactMap { $0 }.filter { !$0.isEmpty }
        environment["MALLOC_CONF"] = conf.joined(separator: ",")
        environment[Relaunch.marker] = "1"
        child.environment = environment
        let output = Pipe()
        child.standardOutput = output
        log("counting allocations of every thread (W11–W13) in a child process with MALLOC_CONF=\(AllThreadCounting.mallocConf)")
        do {
            try child.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            child.waitUntilExit()
            guard child.terminationStatus == 0 else { throw BenchError("the counting process exited with status \(child.terminationStatus)") }
            let observations = try parse(text, cells: cells)
            log("allocation pass: \(cells.reduce(0) { $0 + $1.backends.count }) cells counted in \(Format.short(Date().timeIntervalSince(started))) s")
            return observations
        } catch {
            log("allocation pass failed (\(error)); the run has no allocation rows for W11–W13")
            return []
        }
    }

    /// `counted` placed after the timed observations of the same workload configuration, so each cell's rows stay together.
    static func merge(_ counted: [Observation], into timed: [Observation]) -> [Observation] {
        var merged = timed
        for observation in counted {
            let sameCell = { (other: Observation) in other.workload.id == observation.workload.id && other.parameters == observation.parameters }
            let last = merged.lastIndex(where: sameCell) ?? merged.count - 1
            merged.insert(observation, at: last + 1)
        }
        return merged
    }

    /// The child's CSV as observations of the parent's cells.
    static func parse(_ text: String, cells: [(workload: Workload, parameters: Parameters, backends: [Backend])]) throws -> [Observation] {
        let table = try CSV.decode(text)
        guard table.first == columns else { throw BenchError("the counting process printed no CSV header") }
        var observations: [Observation] = []
        for record in table.dropFirst() {
            guard record.count == columns.count, let value = Double(record[4]),
                  let cell = cells.first(where: { $0.workload.id == record[0] && $0.parameters.description == record[1] }),
                  let backend = cell.backends.first(where: { $0.name == record[2] }),
                  let metric = cell.workload.allocationProbe?.metrics.first(where: { $0.name == record[3] }) else {
                throw BenchError("the counting process printed an unexpected line: \(record.joined(separator: ","))")
            }
            if let index = observations.firstIndex(where: {
                $0.workload.id == cell.workload.id && $0.parameters == cell.parameters && $0.backend.name == backend.name && $0.metric == metric
            }) {
                observations[index].values.append(value)
            } else {
                observations.append(Observation(backend: backend, workload: cell.workload, parameters: cell.parameters, metric: metric, values: [value]))
            }
        }
        return observations
    }
}
