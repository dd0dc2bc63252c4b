import Foundation

/// Runs one subject's checks (a scheduler's, a clock's, an executor's) in child processes, so a subject that crashes
/// (a trap, a failed precondition, a segmentation fault) fails the rule it crashed in, and every other rule still
/// runs.
///
/// The child runs the rules it is given in order and prints one line per finished rule (``line(for:)``). The parent
/// feeds each child's output and the way it ended to ``absorb(output:crash:diagnostics:)``: rules with a line are done; when the
/// child died, the first rule without a line is the one it died in and fails with the signal; a new child then takes
/// the rules after it (``nextRules``). Declared and not-applicable rules never need a child.
///
/// ```swift
/// var run = IsolatedRun(subject: backend, rules: ConformanceRules.all)
/// while let ids = run.nextRules {
///     let (output, crash) = try launchChild(backend.name, ids)   // e.g. your executable, or a Swift Testing exit test
///     run.absorb(output: output, crash: crash)
/// }
/// let results = run.results
/// ```
public struct IsolatedRun: Sendable {
    public let subject: any ConformanceSubject
    private var settled: [RuleID: RuleResult] = [:]
    private var remaining: [ConformanceRule]
    private let order: [RuleID]

    /// The rules of `rules` about `subject`'s kind (a rule about another kind of subject is no cell of its row).
    public init(subject: any ConformanceSubject, rules: [ConformanceRule]) {
        self.subject = subject
        let rules = ConformanceReport.cells(rules, on: subject)
        order = rules.map(\.id)
        // What a subject claims may take making one and tearing it down (an executor's pool): done here, in the
        // parent, it must not hang the run. A subject that cannot say what it is within a rule's deadline fails every
        // rule, saying so, and the other subjects still run.
        let limit = RuleDeadline.scaled(RuleDeadline.standard)
        guard RuleDeadline.finishes(within: limit, { _ = subject.claims }) else {
            let detail =
                "reading what it claims (making one and tearing it down) did not finish in \(readable(limit)), so no rule ran"
            for rule in rules {
                settled[rule.id] = RuleResult(
                    ruleID: rule.id, backendName: subject.name, outcome: .failed(detail: detail), seconds: 0)
            }
            remaining = []
            return
        }
        var toRun: [ConformanceRule] = []
        for rule in rules {
            if let outcome = subject.outcomeWithoutRunning(rule) {
                settled[rule.id] = RuleResult(ruleID: rule.id, backendName: subject.name, outcome: outcome, seconds: 0)
            } else {
                toRun.append(rule)
            }
        }
        remaining = toRun
    }

    /// A scheduler's run: as ``init(subject:rules:)``.
    public init(backend: ConformanceBackend, rules: [ConformanceRule]) { self.init(subject: backend, rules: rules) }

    /// The rule ids the next child must run, in order; nil once every rule has a result.
    public var nextRules: [RuleID]? { remaining.isEmpty ? nil : remaining.map(\.id) }

    /// Every rule's result, in the order the rules were given.
    public var results: [RuleResult] { order.compactMap { settled[$0] } }

    /// How a child ended when it did not exit normally: killed by `signal`, exited with a non-zero `status`, or
    /// stopped by the parent after `seconds` without a result (a check stuck outside the kit's own deadline, e.g. in
    /// a crash handler that never returns).
    public enum Crash: Sendable, Equatable {
        case signal(Int32)
        case exitStatus(Int32)
        case stopped(afterSeconds: Int)

        var description: String {
            switch self {
            case .signal(let number):
                "crashed with signal \(number)\(Self.signalNames[number].map { " (\($0))" } ?? "")"
            case .exitStatus(let status): "the process exited with status \(status)"
            case .stopped(let seconds):
                "did not finish in \(seconds) s: the check process gave no result and was stopped"
            }
        }

        private static let signalNames: [Int32: String] = [
            4: "SIGILL: a trap, e.g. a failed precondition", 5: "SIGTRAP: a trap", 6: "SIGABRT", 7: "SIGBUS",
            8: "SIGFPE", 9: "SIGKILL", 11: "SIGSEGV",
        ]
    }

    /// Takes what a child printed and how it ended (`crash` nil: it exited normally). `diagnostics` is what it wrote
    /// to standard error: the runtime's message (`Fatal error: …`) and the first frames of the crashed thread from
    /// it join the failure's detail.
    public mutating func absorb(output: String, crash: Crash?, diagnostics: String = "") {
        for line in output.split(separator: "\n") {
            guard let result = Self.result(from: line), result.backendName == subject.name else { continue }
            settled[result.ruleID] = result
        }
        remaining.removeAll { settled[$0.id] != nil }
        guard let first = remaining.first else { return }
        let seen = Self.crashSummary(diagnostics)
        let detail =
            (crash.map { "\($0.description) while checking this rule; the other rules ran in a new process" }
                ?? "the check process ended without a result for this rule") + (seen.isEmpty ? "" : ": \(seen)")
        settled[first.id] = RuleResult(
            ruleID: first.id, backendName: subject.name, outcome: .failed(detail: detail), seconds: 0)
        remaining.removeFirst()
    }

    /// The runtime's last message and the first frames of the crashed thread, from a child's standard error, in one
    /// line (empty if there are none, e.g. under a sanitizer or with the backtracer off).
    static func crashSummary(_ diagnostics: String) -> String {
        let lines = diagnostics.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        var parts: [String] = []
        if let fatal = lines.last(where: { $0.contains("Fatal error") || $0.contains("Precondition failed") }) {
            parts.append(fatal)
        }
        if let crashed = lines.lastIndex(where: { $0.hasSuffix("crashed:") }) {
            let frames = lines[(crashed + 1)...].filter { $0.first?.isNumber == true }.prefix(Self.framesShown)
            if !frames.isEmpty { parts.append("first frames: " + frames.joined(separator: " | ")) }
        }
        return parts.joined(separator: "; ")
    }

    /// How many of the crashed thread's frames a failure shows.
    public static let framesShown = 4

    // MARK: The child's side

    static let linePrefix = "conformance-result\t"

    /// The line a child prints for one finished rule: plain text a person can read, tab-separated (rule, backend,
    /// outcome, seconds, observed trials or empty, detail), with tabs, newlines and backslashes in the detail written
    /// as `\t`, `\n`, `\\`.
    public static func line(for result: RuleResult) -> String {
        linePrefix
            + [
                result.ruleID.rawValue, result.backendName, result.outcome.label, String(result.seconds),
                result.trials.map(String.init) ?? "", escaped(result.outcome.detail),
            ]
            .joined(separator: "\t")
    }

    static func result(from line: Substring) -> RuleResult? {
        guard line.hasPrefix(linePrefix) else { return nil }
        let fields = line.dropFirst(linePrefix.count).split(
            separator: "\t", maxSplits: 5, omittingEmptySubsequences: false)
        guard fields.count == 6, let seconds = Double(fields[3]), let id = RuleID(String(fields[0])) else { return nil }
        let trials = fields[4].isEmpty ? nil : Int(fields[4])
        let (name, detail) = (String(fields[1]), unescaped(fields[5]))
        let outcome: RuleOutcome
        switch fields[2] {
        case "passed": outcome = .passed(note: detail)
        case "failed": outcome = .failed(detail: detail)
        case "declared": outcome = .declared(reason: detail)
        case "n/a": outcome = .notApplicable
        default: return nil
        }
        return RuleResult(ruleID: id, backendName: name, outcome: outcome, seconds: seconds, trials: trials)
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\t", with: "\\t")
            .replacingOccurrences(of: "\n", with: "\\n")
    }

    static func unescaped(_ text: Substring) -> String {
        var out = ""
        var escaping = false
        for character in text {
            if escaping {
                out.append(character == "t" ? "\t" : character == "n" ? "\n" : character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                out.append(character)
            }
        }
        return out
    }

    /// In the child: runs `ruleIDs` on `subject` in order, printing (and flushing) a line after each, so the parent
    /// knows how far it got if a check kills the process.
    public static func runInChild(subject: any ConformanceSubject, ruleIDs: [RuleID]) {
        for id in ruleIDs {
            guard let rule = ConformanceRules.rule(id) else { continue }
            let result = subject.judge(rule)
            FileHandle.standardOutput.write(Data((line(for: result) + "\n").utf8))
        }
    }
}
