import Histogram

/// The per-round values of one metric of one (backend, workload, parameters) cell.
public struct Observation: Sendable {
    public let backend: Backend
    public let workload: Workload
    public let parameters: Parameters
    public let metric: MetricSpec
    public var values: [Double]
    /// Latency workloads: every round's samples merged, for the percentile columns.
    public var histogram: Histogram<UInt64>?
}

/// Runs workloads on backends: a warm-up round each, then rounds that interleave the backends (A B C A B C …), so
/// that drift of the machine hits every backend alike.
public struct Runner: Sendable {
    public let backends: [Backend]
    public let workloads: [Workload]
    public let scale: Scale
    public let rounds: Int

    public init(backends: [Backend], workloads: [Workload], scale: Scale, rounds: Int? = nil) {
        self.backends = backends
        self.workloads = workloads
        self.scale = scale
        self.rounds = rounds ?? scale.rounds
    }

    /// The (workload, parameters, backends) cells this runner will measure, in order.
    public var plan: [(workload: Workload, parameters: Parameters, backends: [Backend])] {
        workloads.flatMap { workload in
            let eligible = backends.filter(workload.supports)
            return eligible.isEmpty ? [] : workload.parameters(at: scale).map { (workload, $0, eligible) }
        }
    }

    func roundsFor(_ workload: Workload) -> (warmUp: Int, measured: Int) {
        workload.singleRound ? (0, 1) : (1, rounds)
    }

    /// Total rounds to run, for progress reports.
    public var totalSteps: Int {
        plan.reduce(0) { sum, cell in
            let (warmUp, measured) = roundsFor(cell.workload)
            return sum + (warmUp + measured) * cell.backends.count
        }
    }

    /// Runs the plan; `progress` gets (steps done, total, what runs now) before each round.
    public func run(progress: (Int, Int, String) -> Void = { _, _, _ in }) -> [Observation] {
        var observations: [Observation] = []
        var step = 0
        let total = totalSteps
        for (workload, parameters, eligible) in plan {
            let (warmUp, measured) = roundsFor(workload)
            var cells = eligible.map { backend in
                workload.metrics.map { Observation(backend: backend, workload: workload, parameters: parameters, metric: $0, values: []) }
            }
            for round in 0..<(warmUp + measured) {
                for (index, backend) in eligible.enumerated() {
                    let label = round < warmUp ? "warm-up" : "round \(round - warmUp + 1)/\(measured)"
                    progress(step, total, "\(workload.id) \(workload.name) \(parameters) · \(backend.name) · \(label)")
                    step += 1
                    let result = workload.runRound(on: backend, parameters)
                    guard round >= warmUp else { continue }
                    for metricIndex in cells[index].indices {
                        let name = cells[index][metricIndex].metric.name
                        if let value = result.values[name] { cells[index][metricIndex].values.append(value) }
                        if let histogram = result.histogram {
                            if cells[index][metricIndex].histogram == nil {
                                cells[index][metricIndex].histogram = histogram
                            } else {
                                cells[index][metricIndex].histogram!.add(histogram)
                            }
                        }
                    }
                }
            }
            observations += cells.joined().filter { !$0.values.isEmpty }
        }
        progress(total, total, "done")
        return observations
    }
}
