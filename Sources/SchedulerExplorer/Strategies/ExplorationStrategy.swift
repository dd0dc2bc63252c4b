/// How an exploring scheduler chooses the next job among those ready: a ``SchedulingStrategy``, with the built-in
/// ones at hand as `.firstInFirstOut`, `.random`, `.pct(depth:steps:)` and `.exhaustive(preemptions:)`. A strategy of
/// your own is `ExplorationStrategy(MyStrategy())`.
public struct ExplorationStrategy: Sendable, Hashable, CustomStringConvertible {
    /// The strategy itself.
    public let strategy: any SchedulingStrategy

    public init(_ strategy: some SchedulingStrategy) { self.strategy = strategy }

    /// Always the job that became ready first: `TestScheduler`'s order, one schedule whatever the seed.
    public static let firstInFirstOut = ExplorationStrategy(FirstInFirstOutStrategy())
    /// Uniformly at random among the ready jobs.
    public static let random = ExplorationStrategy(RandomStrategy())

    /// Probabilistic concurrency testing: ``PCTStrategy``.
    public static func pct(depth: Int, steps: Int) -> ExplorationStrategy {
        ExplorationStrategy(PCTStrategy(depth: depth, steps: steps))
    }

    /// Every schedule with at most `preemptions` preemptions, depth first: ``ExhaustiveStrategy``.
    public static func exhaustive(preemptions: Int) -> ExplorationStrategy {
        ExplorationStrategy(ExhaustiveStrategy(preemptions: preemptions))
    }

    /// The strategies the explorer knows by their spelling.
    public static let builtIn: [any SchedulingStrategy.Type] = [
        FirstInFirstOutStrategy.self, RandomStrategy.self, PCTStrategy.self, ExhaustiveStrategy.self,
    ]

    /// The strategy `text` spells (``StrategySpelling``), among the built-in ones and `strategies`; nil if none
    /// takes it.
    public init?(_ text: String, among strategies: [any SchedulingStrategy.Type] = []) {
        guard let spelling = StrategySpelling(text) else { return nil }
        for type in strategies + Self.builtIn {
            if let strategy = type.init(spelling: spelling) {
                self.strategy = strategy
                return
            }
        }
        return nil
    }

    /// How a replay line writes it.
    public var spelling: StrategySpelling { strategy.spelling }
    /// Whether its schedules are replayed by their choices rather than by a seed.
    public var isSystematic: Bool { strategy.isSystematic }
    public var description: String { strategy.description }

    /// Two strategies are the same when they are spelled the same.
    public static func == (a: ExplorationStrategy, b: ExplorationStrategy) -> Bool { a.spelling == b.spelling }
    public func hash(into hasher: inout Hasher) { hasher.combine(spelling) }
}
