import Foundation

/// One measured round of one backend in one cell.
struct RoundRecord: Sendable {
    var result: RoundResult
    /// How many times the workload ran (each on a fresh backend instance) to fill the round.
    var repetitions: Int
    var seconds: Double
    /// What the kernel's scheduler did to the process during the round; nil when not counted.
    var contextSwitches: Double?
    var migrations: Double?

    init(
        result: RoundResult, repetitions: Int = 1, seconds: Double = 0, contextSwitches: Double? = nil,
        migrations: Double? = nil
    ) {
        self.result = result
        self.repetitions = repetitions
        self.seconds = seconds
        self.contextSwitches = contextSwitches
        self.migrations = migrations
    }
}

/// Everything one backend measured in one cell: its timed rounds, and exact counts from the allocation pass.
struct BackendRounds: Sendable {
    let backend: Backend
    var rounds: [RoundRecord] = []
    /// Counted values per metric, one per counted round (W11–W13; see `AllocationPass`).
    var counted: [Metric: [Double]] = [:]

    init(backend: Backend, rounds: [RoundRecord] = [], counted: [Metric: [Double]] = [:]) {
        self.backend = backend
        self.rounds = rounds
        self.counted = counted
    }

    /// The values of `metric`: counted ones if any, else one per timed round (nil if a round lacks it).
    func values(of metric: Metric) -> [Double]? {
        if let counted = counted[metric] { return counted }
        let values = rounds.compactMap { $0.result.values[metric] }
        return values.isEmpty || values.count != rounds.count ? nil : values
    }
}

/// One (workload, parameters) cell: every backend's rounds, which ran interleaved (round i of each backend ran in
/// the same sweep, so round i of two backends can be paired).
struct CellMeasurement: Sendable {
    let workload: Workload
    let parameters: Parameters
    var backends: [BackendRounds]

    init(workload: Workload, parameters: Parameters, backends: [BackendRounds]) {
        self.workload = workload
        self.parameters = parameters
        self.backends = backends
    }
}

/// Runs workloads on backends: a warm-up run each, then rounds that interleave the backends (A B C A B C …), so that
/// drift of the machine hits every backend alike and round i of one backend can be paired with round i of another.
struct Runner: Sendable {
    let backends: [Backend]
    let workloads: [Workload]
    let scale: Scale
    let policy: RoundPolicy

    init(backends: [Backend], workloads: [Workload], scale: Scale, policy: RoundPolicy? = nil) {
        self.backends = backends
        self.workloads = workloads
        self.scale = scale
        self.policy = policy ?? scale.roundPolicy
    }

    struct Cell: Sendable {
        let workload: Workload
        let parameters: Parameters
        let backends: [Backend]
    }

    /// The cells this runner will measure, in order.
    var plan: [Cell] {
        workloads.flatMap { workload in
            let eligible = backends.filter(workload.supports)
            return eligible.isEmpty
                ? []
                : workload.parameters(at: scale).map { Cell(workload: workload, parameters: $0, backends: eligible) }
        }
    }

    func baseRounds(_ workload: Workload) -> (warmUp: Int, measured: Int) {
        workload.measuredOnce ? (0, 1) : (1, policy.rounds)
    }

    /// Rounds the plan needs before any extra round, for progress reports.
    var baseSteps: Int {
        plan.reduce(0) { sum, cell in
            let (warmUp, measured) = baseRounds(cell.workload)
            return sum + (warmUp + measured) * cell.backends.count
        }
    }

    /// Runs the plan; `progress` gets (rounds done, rounds planned, what runs now) before each round.
    func run(progress: (Int, Int, String) -> Void = { _, _, _ in }) -> [CellMeasurement] {
        var step = 0
        var planned = baseSteps
        let extendable = plan.filter { !$0.workload.measuredOnce }.count
        var extraLeft = policy.extraSeconds
        var extendableLeft = extendable
        var measured: [CellMeasurement] = []
        for cell in plan {
            var measurement = CellMeasurement(
                workload: cell.workload, parameters: cell.parameters,
                backends: cell.backends.map { BackendRounds(backend: $0) })
            let (warmUp, rounds) = baseRounds(cell.workload)
            func sweep(_ label: String, keep: Bool) {
                for (index, backend) in cell.backends.enumerated() {
                    progress(
                        step, planned,
                        "\(cell.workload.id) \(cell.workload.name) \(cell.parameters) · \(backend.id) · \(label)")
                    step += 1
                    let record = measureRound(cell.workload, on: backend, cell.parameters, extend: keep)
                    if keep { measurement.backends[index].rounds.append(record) }
                }
            }
            for _ in 0..<warmUp { sweep("warm-up", keep: false) }
            for round in 0..<rounds { sweep("round \(round + 1)/\(rounds)", keep: true) }
            if !cell.workload.measuredOnce {
                // Extra rounds: this cell's share of what is left of the budget (unspent shares carry forward).
                let allowance = extraLeft / Double(max(1, extendableLeft))
                let started = Date()
                var count = rounds
                while count < policy.maximumRounds && Date().timeIntervalSince(started) < allowance
                    && RoundPolicyCheck.needsMoreRounds(measurement, targetSpread: policy.targetSpread)
                {
                    count += 1
                    planned += cell.backends.count
                    sweep("extra round \(count)/≤\(policy.maximumRounds)", keep: true)
                }
                extraLeft = max(0, extraLeft - Date().timeIntervalSince(started))
                extendableLeft -= 1
            }
            measured.append(measurement)
        }
        progress(planned, planned, "done")
        return measured
    }

    /// One round: the workload, on fresh instances of the backend, until the round has lasted the policy's minimum.
    func measureRound(_ workload: Workload, on backend: Backend, _ parameters: Parameters, extend: Bool) -> RoundRecord
    {
        let before = SchedulingCounters.read()
        let start = Clock.now()
        var results: [RoundResult] = []
        let minimum = extend && !workload.measuredOnce ? UInt64(policy.minimumRoundSeconds * 1e9) : 0
        repeat {
            results.append(workload.runRound(on: backend, parameters))
        } while Clock.now() - start < minimum && results.count < Self.repetitionLimit
        let seconds = Double(Clock.now() - start) / 1e9
        let after = SchedulingCounters.read()
        var record = RoundRecord(result: .combining(results), repetitions: results.count, seconds: seconds)
        if let before, let after {
            record.contextSwitches = Double(after.contextSwitches &- before.contextSwitches)
            if let first = before.migrations, let last = after.migrations { record.migrations = Double(last &- first) }
        }
        return record
    }

    /// A round never repeats its workload more than this, however quick one run is.
    static let repetitionLimit = 10_000
}

/// Whether a cell's intervals are still too wide: the headline metric's median, or its paired ratio to the
/// backend's reference, has a 95 % interval wider than `targetSpread` of its value. Both are judged on the rounds at
/// the cell's median machine level, as the summary will be (`RoundLevels`): a spread the level explains needs no
/// more rounds.
enum RoundPolicyCheck {
    static func needsMoreRounds(_ cell: CellMeasurement, targetSpread: Double) -> Bool {
        guard let metric = cell.workload.metrics.first else { return false }
        let measured = cell.backends.compactMap { entry in entry.values(of: metric).map { (entry.backend, $0) } }
        let levelled = RoundLevels.adjusted(measured.map(\.1), of: metric)
        let byBackend = Dictionary(zip(measured.map(\.0.id), levelled)) { first, _ in first }
        for ((backend, _), values) in zip(measured, levelled) where values.count >= Statistics.minimumRounds {
            if Statistics.medianEstimate(values).relativeWidth > targetSpread { return true }
            if let reference = backend.wraps.flatMap({ byBackend[$0] }),
                let ratio = Statistics.pairedRatio(values, over: reference), ratio.relativeWidth > targetSpread
            {
                return true
            }
        }
        return false
    }
}
