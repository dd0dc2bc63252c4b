import Foundation
import SchedulerConformance
import ToolSupport

/// What an actor workload's allocation pass reports: allocations and size-class bytes of every thread (the caller's,
/// the executor's workers, Swift's cooperative threads) per unit of work, counted exactly by jemalloc's arenas in
/// a process without thread caches (see `AllThreadCounting`).
struct AllocationProbe: Sendable {
    let allocations: Metric
    /// Bytes of the size classes the requests were served from (a 100-byte request counts 112), not requested bytes.
    let sizeClassBytes: Metric
    let units: @Sendable (Parameters) -> Int
    let prepare: @Sendable (LaneGroup, Parameters) -> ActorLoop

    init(
        allocations: Metric, sizeClassBytes: Metric, units: @escaping @Sendable (Parameters) -> Int,
        prepare: @escaping @Sendable (LaneGroup, Parameters) -> ActorLoop
    ) {
        self.allocations = allocations
        self.sizeClassBytes = sizeClassBytes
        self.units = units
        self.prepare = prepare
    }

    var metrics: [Metric] { [allocations, sizeClassBytes] }

    /// The most units a counted run repeats.
    static let countedUnitsLimit = 10_000

    /// Counts on a fresh instance of `backend`, after a warm-up run (first-use allocations of the runtime and the
    /// backend). Each round counts an empty run (starting and awaiting the task: the baseline) and a run of the
    /// workload's units, and reports their difference per unit. Nil unless counting is exact in this process.
    func count(on backend: Backend, _ parameters: Parameters, rounds: Int) -> [Metric: [Double]]? {
        guard AllThreadCounting.isExact else { return nil }
        let lanes = backend.instance()
        defer { lanes.shutdown() }
        let loop = prepare(lanes, parameters)
        // Counts per unit are exact at any size; more units than this only take longer.
        let units = min(self.units(parameters), Self.countedUnitsLimit)
        _ = loop.run(max(1, units / 10))
        var values: [Metric: [Double]] = [allocations: [], sizeClassBytes: []]
        for _ in 0..<rounds {
            guard let start = ArenaTotals.read() else { return nil }
            _ = loop.run(0)
            guard let middle = ArenaTotals.read() else { return nil }
            _ = loop.run(units)
            guard let end = ArenaTotals.read() else { return nil }
            let (baseline, measured) = (middle - start, end - middle)
            values[allocations]!.append((Double(measured.allocations) - Double(baseline.allocations)) / Double(units))
            values[sizeClassBytes]!.append(
                (Double(measured.sizeClassBytes) - Double(baseline.sizeClassBytes)) / Double(units))
        }
        return values
    }

    /// What `read` reads just before and just after a run of the units of `parameters` is timed, on a fresh
    /// instance of `backend`, after a warm-up run, and how many units ran: the jobs a row sends through the global
    /// executor (``GlobalJobCount`` in the tool). Unlike the allocations above, no empty run is subtracted: a task
    /// started before the first unit that decides where the units run (W25's consumer) is part of the row.
    func readings<Reading: Sendable>(
        on backend: Backend, _ parameters: Parameters, _ read: @escaping @Sendable () -> Reading
    ) -> (before: Reading, after: Reading, units: Int) {
        let lanes = backend.instance()
        defer { lanes.shutdown() }
        let loop = prepare(lanes, parameters)
        let units = min(self.units(parameters), Self.countedUnitsLimit)
        _ = loop.run(max(1, units / 10))
        let (before, after) = loop.readings(units, read)
        return (before, after, units)
    }
}

extension Workload {
    /// What `read` reads just before and just after one timed run of a row's units, on a fresh instance of `backend`
    /// after a warm-up run, and how many units ran: what `bench global-executors` counts of the jobs a row sends
    /// through the global executor. Nil for a workload without such a loop (one that counts nothing in a child).
    package func readings<Reading: Sendable>(
        on backend: Backend, _ parameters: Parameters, _ read: @escaping @Sendable () -> Reading
    ) -> (before: Reading, after: Reading, units: Int)? {
        allocationProbe?.readings(on: backend, parameters, read)
    }
}

/// The allocation pass of a run: after the timed rounds, `bench` starts itself again as a child (through the
/// ``Counter`` it passes) with jemalloc preloaded and `MALLOC_CONF=tcache:false`,
/// which counts every actor workload of the run on every backend and prints the per-round values; the parent adds
/// them to its cells. Counting needs no allocator hooks, and the timed rounds keep their thread caches.
package enum AllocationPass {
    /// Counted rounds per cell (each a baseline and a full run of the workload's units). Seven, because a round
    /// now and then counts a timing-dependent extra (Dispatch refilling its continuation cache, the cooperative pool
    /// starting a thread) or loses one to the baseline: the median of seven stays exact unless four of them do, so
    /// `bench check` can gate on it. A round costs milliseconds.
    static func rounds(_ scale: Scale) -> Int { scale == .smoke ? 1 : 7 }

    static let columns = ["workload", "parameters", "backend", "metric", "value"]

    /// The child's work: proves that counts are exact here, counts every (workload, parameters, backend) cell, and
    /// returns the values as CSV (one line per round and metric, full precision).
    package static func countInChild(
        backends: [BackendID], workloads: [WorkloadID], scale: Scale,
        log: (String) -> Void
    ) throws -> String {
        let request = RunRequest(backends: backends, workloads: workloads, scale: scale)
        let runner = Runner(
            backends: try request.resolvedBackends(),
            workloads: try request.resolvedWorkloads().filter { $0.allocationProbe != nil }, scale: scale)
        do { log(try AllThreadCounting.proveExact()) } catch let error as AllThreadCounting.NotExact {
            throw BenchError.failed(error.description)
        }
        var lines = [columns]
        for cell in runner.plan {
            guard let probe = cell.workload.allocationProbe else { continue }
            for backend in cell.backends {
                guard let counted = probe.count(on: backend, cell.parameters, rounds: rounds(scale)) else {
                    throw BenchError.failed(
                        "jemalloc's arena statistics became unreadable while counting \(cell.workload.id) on \(backend.id)"
                    )
                }
                for metric in probe.metrics {
                    for value in counted[metric] ?? [] {
                        lines.append([
                            cell.workload.id.rawValue, cell.parameters.description, backend.id.rawValue,
                            metric.name, "\(value)",
                        ])
                    }
                }
            }
        }
        return CSV.encode(lines)
    }

    /// Counts in another process of the same program, with `environment` (thread caches off), the allocations of
    /// `backends` on `workloads` at `scale`, and returns what ``countInChild(backends:workloads:scale:log:)``
    /// printed there. `bench` starts a child of itself; a package's own runner (`BenchYourOwn`) has none.
    package typealias Counter =
        @Sendable (_ backends: [BackendID], _ workloads: [WorkloadID], _ scale: Scale, _ environment: [String: String])
        throws -> String

    /// The parent's side: counts the runner's actor workloads through `counter` and returns the counts, per cell and
    /// backend. Empty, with a note, when the run has no actor workload, no process can count (`counter` nil: a
    /// package's own runner, `BenchYourOwn`), jemalloc is not live here, or the counting fails.
    static func run(for runner: Runner, counter: Counter?, log: (String) -> Void) -> [Counted] {
        let cells = runner.plan.filter { $0.workload.allocationProbe != nil }
        guard !cells.isEmpty else { return [] }
        guard let counter else {
            log("allocations of every thread are counted in a child process of bench; this run starts none")
            return []
        }
        guard Jemalloc.isLive else {
            log(
                "allocations per actor call, task and round trip (W11–W13) and per schedule (W22) need jemalloc; not counted under this allocator"
            )
            return []
        }
        let started = Date()
        let backends = Set(cells.flatMap { $0.backends.map(\.id) })
        var environment = ProcessInfo.processInfo.environment
        let conf = [environment["MALLOC_CONF"], AllThreadCounting.mallocConf].compactMap { $0 }.filter { !$0.isEmpty }
        environment["MALLOC_CONF"] = conf.joined(separator: ",")
        environment[Relaunch.marker] = "1"
        log(
            "counting allocations of every thread (W11–W13, W22) in a child process with MALLOC_CONF=\(AllThreadCounting.mallocConf)"
        )
        do {
            let output = try counter(
                runner.backends.map(\.id).filter(backends.contains), Array(Set(cells.map(\.workload.id))).sorted(),
                runner.scale, environment)
            let counted = try parse(output, cells: cells)
            log(
                "allocation pass: \(cells.reduce(0) { $0 + $1.backends.count }) cells counted in "
                    + "\(Format.short(Date().timeIntervalSince(started))) s")
            return counted
        } catch {
            log("allocation pass failed (\(error)); the run has no allocation rows for W11–W13 and W22")
            return []
        }
    }

    /// The counts of one backend in one cell.
    struct Counted: Sendable {
        let workload: WorkloadID
        let parameters: Parameters
        let backend: BackendID
        var values: [Metric: [Double]]
    }

    /// The timed cells with the counts added to their backends.
    static func merge(_ counted: [Counted], into cells: [CellMeasurement]) -> [CellMeasurement] {
        cells.map { cell in
            var cell = cell
            for index in cell.backends.indices {
                let backend = cell.backends[index].backend.id
                for entry in counted
                where entry.workload == cell.workload.id && entry.parameters == cell.parameters
                    && entry.backend == backend
                {
                    cell.backends[index].counted.merge(entry.values) { $0 + $1 }
                }
            }
            return cell
        }
    }

    /// The child's CSV as counts of the parent's cells.
    static func parse(_ text: String, cells: [Runner.Cell]) throws -> [Counted] {
        let table = try CSV.decode(text)
        guard table.first == columns else { throw BenchError.failed("the counting process printed no CSV header") }
        var counted: [Counted] = []
        for record in table.dropFirst() {
            guard record.count == columns.count, let value = Double(record[4]),
                let cell = cells.first(where: {
                    $0.workload.id.rawValue == record[0] && $0.parameters.description == record[1]
                }),
                let backend = cell.backends.first(where: { $0.id.rawValue == record[2] }),
                let metric = cell.workload.allocationProbe?.metrics.first(where: { $0.name == record[3] })
            else {
                throw BenchError.failed(
                    "the counting process printed an unexpected line: \(record.joined(separator: ","))")
            }
            if let index = counted.firstIndex(where: {
                $0.workload == cell.workload.id && $0.parameters == cell.parameters && $0.backend == backend.id
            }) {
                counted[index].values[metric, default: []].append(value)
            } else {
                counted.append(
                    Counted(
                        workload: cell.workload.id, parameters: cell.parameters, backend: backend.id,
                        values: [metric: [value]]))
            }
        }
        return counted
    }
}
