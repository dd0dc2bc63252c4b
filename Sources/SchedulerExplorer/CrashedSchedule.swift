extension ExplorationFailure {
    /// The schedule a child process died in, read from the crash note it printed on standard error (`CrashNote`):
    /// its index, seed, strategy and last steps, as a failure of kind ``Kind/crashed(signal:)``. Nil if `crashNote`
    /// holds no note (the child did not die in a schedule). Run an exploration whose body may trap in a child process
    /// (an exit test), and read its standard error with this: the test process lives on, and the crash is a failure
    /// with a seed that replays (in a child process too). See `Docs/Exploring.md`, "A crash keeps its seed".
    ///
    /// An exhaustive schedule is named in the note by its index in the walk, not by its choices (a signal handler
    /// cannot print them whole): ``choices`` is empty, and the same exploration reaches it again at that index.
    public init?(crashNote: String) {
        let lines = crashNote.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let dyingText = CrashNoteText.dying.description
        guard let dying = lines.lastIndex(where: { $0.hasPrefix(dyingText) }) else { return nil }
        let words = lines[dying].dropFirst(dyingText.count).split(separator: " ").map(String.init)
        // "4 in schedule 0 of 10 (seed 0x63CBE1E459320DD7"
        guard words.count >= 8, let signal = Int32(words[0]), let index = Int(words[3]), let of = Int(words[5]),
            let seed = SplitMix64.parse(words[7].trimmingCharacters(in: [")"]))
        else { return nil }
        guard dying + 1 < lines.count, let strategy = Self.strategy(inReplayLine: lines[dying + 1]) else { return nil }
        let steps = lines[(dying + 1)...].drop { !$0.hasPrefix(CrashNoteText.lastSteps.description) }.dropFirst()
        let trace = steps.prefix { $0.hasPrefix(" ") }.joined(separator: "\n")
        self.init(
            kind: .crashed(signal: signal), schedule: index, of: of, seed: seed, choices: [], strategy: strategy,
            trace: trace)
    }

    /// The strategy a crash note's replay line names.
    private static func strategy(inReplayLine line: String) -> ExplorationStrategy? {
        func number(after label: String) -> Int? {
            guard let start = line.range(of: label)?.upperBound else { return nil }
            return Int(line[start...].prefix { $0.isNumber })
        }
        if line.contains(".firstInFirstOut") { return .firstInFirstOut }
        if line.contains(".random") { return .random }
        if line.contains(".pct(") {
            guard let depth = number(after: "depth: "), let steps = number(after: "steps: ") else { return nil }
            return .pct(depth: depth, steps: steps)
        }
        if line.contains(".exhaustive(") {
            return number(after: "preemptions: ").map { .exhaustive(preemptions: $0) }
        }
        return nil
    }
}
