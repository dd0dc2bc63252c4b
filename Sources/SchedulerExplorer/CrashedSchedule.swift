import SchedulerKit

extension ExplorationFailure {
    /// The schedule a child process died in, read from the crash note it printed on standard error (`CrashNote`):
    /// its index, seed, strategy and last steps, as a failure of kind ``Kind/crashed(signal:)``. Nil if `crashNote`
    /// holds no note (the child did not die in a schedule). Run an exploration whose body may trap in a child process
    /// (an exit test), and read its standard error with this: the test process lives on, and the crash is a failure
    /// with a seed that replays (in a child process too). See `Docs/Exploring.md`, "A crash keeps its seed". A strategy
    /// of your own is read back when `strategies` names its type.
    ///
    /// An exhaustive schedule is named in the note by its index in the walk, not by its choices (a signal handler
    /// cannot print them whole): ``choices`` is empty, and the same exploration reaches it again at that index.
    public init?(crashNote: String, strategies: [any SchedulingStrategy.Type] = []) {
        let lines = crashNote.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let dyingText = CrashNoteText.dying.description
        guard let dying = lines.lastIndex(where: { $0.hasPrefix(dyingText) }) else { return nil }
        let words = lines[dying].dropFirst(dyingText.count).split(separator: " ").map(String.init)
        // "4 in schedule 1 of 10 (seed 0x63CBE1E459320DD7": schedule 1 is the one of index 0.
        guard words.count >= 8, let signal = Int32(words[0]), let number = Int(words[3]), number >= 1,
            let of = Int(words[5]),
            let seed = SplitMix64.parse(words[7].trimmingCharacters(in: [")"]))
        else { return nil }
        guard dying + 1 < lines.count, let strategy = Self.strategy(inReplayLine: lines[dying + 1], among: strategies)
        else { return nil }
        let steps = lines[(dying + 1)...].drop { !$0.hasPrefix(CrashNoteText.lastSteps.description) }.dropFirst()
        let trace = steps.prefix { $0.hasPrefix(" ") }.joined(separator: "\n")
        self.init(
            kind: .crashed(signal: signal), schedule: number - 1, of: of, seed: seed, choices: [], strategy: strategy,
            trace: trace)
    }

    /// The strategy a crash note's replay line names: its spelling, after "strategy: ".
    private static func strategy(
        inReplayLine line: String, among strategies: [any SchedulingStrategy.Type]
    ) -> ExplorationStrategy? {
        guard let start = line.range(of: "strategy: ")?.upperBound else { return nil }
        // Seeded: "… strategy: .pct(depth: 2, steps: 50))"; systematic: "… strategy: .exhaustive(preemptions: 2); …".
        var text = line[start...].prefix { $0 != ";" }
        if line.contains("replay(seed:"), text.last == ")" { text = text.dropLast() }
        return ExplorationStrategy(String(text), among: strategies)
    }
}
