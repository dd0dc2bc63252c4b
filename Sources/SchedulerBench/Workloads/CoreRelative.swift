/// Counts that scale with the machine (W2's producers, W3's schedulers): a workload says "the cores, twice the cores"
/// rather than "2, 4", so that a run on 16 or 64 cores asks the same question as one on 2. The counts themselves are
/// what a run records (its `parameters`), beside the core count it ran with (`cores`); on 2 cores they are the counts
/// these workloads always had.
struct CoreRelative: Sendable {
    enum Term: Sendable, Equatable {
        /// A fixed count (one producer; a thousand schedulers, far more than any machine's cores).
        case fixed(Int)
        /// This many times the cores.
        case perCore(Int)
    }

    let terms: [Term]

    /// The counts on a machine with `cores` cores, in order, each once.
    func counts(cores: Int = Clock.cores) -> [Int] {
        var seen: Set<Int> = []
        return terms.map { term in
            switch term {
            case .fixed(let count): count
            case .perCore(let factor): factor * max(1, cores)
            }
        }.filter { seen.insert($0).inserted }
    }

    /// How a count reads beside what it stands for: `8 (4×cores)`, `2 (cores)`, `1`.
    func label(_ count: Int, cores: Int = Clock.cores) -> String {
        for term in terms {
            if case .perCore(let factor) = term, factor * max(1, cores) == count {
                return "\(count) (\(factor == 1 ? "" : "\(factor)×")cores)"
            }
        }
        return String(count)
    }

    /// W2's producers: one, the cores, twice and four times the cores.
    static let producers = CoreRelative(terms: [.fixed(1), .perCore(1), .perCore(2), .perCore(4)])
    /// W3's schedulers: one, eight per core, and a thousand.
    static let fanOutSchedulers = CoreRelative(terms: [.fixed(1), .perCore(8), .fixed(1_000)])
}

extension Workload {
    /// How a count of `parameter` reads in this workload beside what it stands for on a machine with `cores` cores:
    /// `8 (4×cores)` for W2's producers and W3's schedulers (``CoreRelative``), the count itself elsewhere.
    package func label(_ count: Int, of parameter: ParameterName, cores: Int) -> String {
        let relative: [WorkloadID: (ParameterName, CoreRelative)] = [
            .producers: (.producers, .producers), .fanOut: (.schedulers, .fanOutSchedulers),
        ]
        guard let (name, counts) = relative[id], name == parameter else { return String(count) }
        return counts.label(count, cores: cores)
    }
}
