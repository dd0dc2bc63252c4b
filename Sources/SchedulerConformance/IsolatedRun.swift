import Foundation

/// Runs one backend's checks in child processes, so a scheduler that crashes (a trap, a failed precondition, a
/// segmentation fault) fails the rule it crashed in, and every other rule still runs.
///
/// The child runs the rules it is given in order and prints one line per finished rule (``line(for:)``). The parent
/// feeds each child's output and the way it ended to ``absorb(output:crash:)``: rules with a line are done; when the
/// child died, the first rule without a line is the one it died in and fails with the signal; a new child then takes
/// the rules after it (``nextRules``). Declared and not-applicable rules never need a child.
///
/// ```swift
/// var run = IsolatedRun(backend: backend, rules: ConformanceRules.all)
/// while let ids = run.nextRules {
///     let (output, crash) = try launchChild(backend.name, ids)   // e.g. your executable, or a Swift Testing exit test
///     run.absorb(output: output, crash: crash)
/// }
/// let results = run.results
/// ```
public struct IsolatedRun: Sendable {
    public let backend: ConformanceBackend
    private var settled: [String: RuleResult] = [:]
    private var remaining: [ConformanceRule]
    private let order: [String]

    public init(backend: ConformanceBackend, rules: [ConformanceRule]) {
        self.backend = backend
        order = rules.map(\.id)
        var toRun: [ConformanceRule] = []
        for rule in rules {
            if let outcome = backend.outcomeWithoutRunning(rule) {
                settled[rule.id] = RuleResult(ruleID: rule.id, backendName: backend.name, outcome: outcome, seconds: 0)
            } else {
                toRun.append(rule)
            }
        }
        remaining = toRun
    }

    /// The rule ids the next child must run, in order; nil once every rule has a result.
    public var nextRules: [String]? { remaining.isEmpty ? nil : remaining.map(\.id) }

    /// Every rule's result, in the order the rules were given.
    public var results: [RuleResult] { order.compactMap { settled[$0] } }

    /// How a child ended when it did not exit normally: killed by `signal`, or exited with a non-zero `status`.
    public enum Crash: Sendable, Equatable {
        case signal(Int32)
        case exitStatus(Int32)

        var description: String {
            switch self {
            case .signal(let number):
                "crashed with signal \(number)\(Self.signalNames[number].map { " (\($0))" } ?? "")"
            case .exitStatus(let status): "the process exited with status \(status)"
            }
        }

        private static let signalNames: [Int32: String] = [
            4: "SIGILL: a trap, e.g. a failed precondition", 5: "SIGTRAP: a trap", 6: "SIGABRT", 7: "SIGBUS",
            8: "SIGFPE", 9: "SIGKILL", 11: "SIGSEGV",
        ]
    }

    /// Takes what a child printed and how it ended (`crash` nil: it exited normally).
    public mutating func absorb(output: String, crash: Crash?) {
        for line in output.split(separator: "\n") {
            guard let result = Self.result(from: line), result.backendName == backend.name else { continue }
            settled[result.ruleID] = result
        }
        remaining.removeAll { settled[$0.id] != nil }
        guard let first = remaining.first else { return }
        let detail =
            crash.map { "\($0.description) while checking this rule; the other rules ran in a new process" }
            ?? "the check process ended without a result for this rule"
        settled[first.id] = RuleResult(
            ruleID: first.id, backendName: backend.name, outcome: .failed(detail: detail), seconds: 0)
        remaining.removeFirst()
    }

    // MARK: The child's side

    static let linePrefix = "conformance-result\t"

    /// The line a child prints for one finished rule.
    public static func line(for result: RuleResult) -> String {
        let fields = [result.ruleID, result.backendName, result.outcome.label, result.outcome.detail]
            .map { Data($0.utf8).base64EncodedString() }
        return linePrefix + (fields + [String(result.seconds)]).joined(separator: "\t")
    }

    static func result(from line: Substring) -> RuleResult? {
        guard line.hasPrefix(linePrefix) else { return nil }
        let fields = line.dropFirst(linePrefix.count).split(separator: "\t", omittingEmptySubsequences: false)
        guard fields.count == 5, let seconds = Double(fields[4]) else { return nil }
        let text = fields.prefix(4).map { Data(base64Encoded: String($0)).map { String(decoding: $0, as: UTF8.self) } }
        guard let id = text[0], let name = text[1], let label = text[2], let detail = text[3] else { return nil }
        let outcome: RuleOutcome
        switch label {
        case "passed": outcome = .passed(note: detail)
        case "failed": outcome = .failed(detail: detail)
        case "declared": outcome = .declared(reason: detail)
        default: outcome = .notApplicable
        }
        return RuleResult(ruleID: id, backendName: name, outcome: outcome, seconds: seconds)
    }

    /// In the child: runs `ruleIDs` on `backend` in order, printing (and flushing) a line after each, so the parent
    /// knows how far it got if a check kills the process.
    public static func runInChild(backend: ConformanceBackend, ruleIDs: [String]) {
        for id in ruleIDs {
            guard let rule = ConformanceRules.rule(id) else { continue }
            let result = backend.evaluate(rule)
            FileHandle.standardOutput.write(Data((line(for: result) + "\n").utf8))
        }
    }
}

extension IsolatedRun {
    /// Every rule on every backend, each backend's checks in child processes of `executable` started with
    /// `arguments(backendName, ruleIDs)`; the child must call ``runInChild(backend:ruleIDs:)``. The child's standard
    /// error passes through. `progress(result, done, total)` follows each result as the child prints it.
    public static func runAll(
        rules: [ConformanceRule], backends: [ConformanceBackend], executable: String,
        arguments: (_ backend: String, _ ruleIDs: [String]) -> [String],
        progress: (RuleResult, Int, Int) -> Void = { _, _, _ in }
    ) throws -> [RuleResult] {
        let total = rules.count * backends.count
        var done = 0
        var results: [RuleResult] = []
        for backend in backends {
            var run = IsolatedRun(backend: backend, rules: rules)
            var reported = Set<String>()
            func report(_ all: [RuleResult]) {
                for result in all where reported.insert(result.ruleID).inserted {
                    done += 1
                    progress(result, done, total)
                }
            }
            report(run.results)  // declared and not-applicable rules, settled without a child
            while let ids = run.nextRules {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: executable)
                process.arguments = arguments(backend.name, ids)
                let pipe = Pipe()
                process.standardOutput = pipe
                try process.run()
                var output = ""
                var buffer = Data()
                while true {
                    let chunk = pipe.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    buffer.append(chunk)
                    while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                        let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                        buffer.removeSubrange(buffer.startIndex...newline)
                        output += line + "\n"
                        if let result = Self.result(from: Substring(line)) { report([result]) }
                    }
                }
                process.waitUntilExit()
                let crash: Crash? =
                    process.terminationReason == .uncaughtSignal
                    ? .signal(process.terminationStatus)
                    : process.terminationStatus == 0 ? nil : .exitStatus(process.terminationStatus)
                run.absorb(output: output, crash: crash)
                report(run.results)
            }
            results += run.results
        }
        return results
    }
}
