import ArgumentParser
import Foundation
import SchedulerBench
import SchedulerBenchTool
import SchedulerConformance
import SchedulerKit
import ToolSupport

/// `bench conformance`: every conformance rule on every built-in backend, the SwiftNIO adapters and Combine's schedulers, written to
/// `conformance.csv` and `CONFORMANCE.md` in the output directory (the same rule definitions `swift test` runs), and
/// the rules themselves, with why each matters and what it catches, to `Docs/Rules.md`.
struct ConformanceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conformance",
        abstract: "Run every conformance rule on every backend; write conformance.csv and CONFORMANCE.md."
    )

    @Option(name: .long, help: "Directory for conformance.csv and CONFORMANCE.md.")
    var output: String = "Results"

    @Option(
        name: .long,
        help:
            "The page of every rule with why it matters and what it catches (written when every rule runs on every backend)."
    )
    var rulesPage: String = "Docs/Rules.md"

    @Option(name: .long, parsing: .upToNextOption, help: "Only these rule ids (e.g. C2 T4); default: all.")
    var rule: [String] = []

    @Option(name: .long, parsing: .upToNextOption, help: "Only these backends (e.g. TestScheduler); default: all.")
    var backend: [String] = []

    /// Set by the parent: run the given rules on the one given backend in this process and print result lines.
    @Flag(name: .long, help: .hidden)
    var child = false

    /// The catalog: SchedulerKit's schedulers, then the peers' (SwiftNIO, Combine) whose traits are enabled.
    static let backends = Catalog.subjects
    static let clocks = Catalog.clocks
    static let executors = Catalog.executors

    func validate() throws {
        if let unknown = rule.first(where: { RuleID($0) == nil }) {
            throw ValidationError(
                "unknown rule '\(unknown)'; known: \(RuleID.all.map(\.rawValue).joined(separator: " "))")
        }
        if child && backend.count != 1 { throw ValidationError("--child takes exactly one --backend") }
        let names = Self.backends.map(\.name) + Self.clocks.map(\.name) + Self.executors.map(\.name)
        if let unknown = backend.first(where: { !names.contains($0) }) {
            throw ValidationError("unknown backend '\(unknown)'; known: \(names.joined(separator: " "))")
        }
    }

    func run() throws {
        let rule = Set(self.rule.compactMap(RuleID.init))
        let rules = rule.isEmpty ? ConformanceRules.all : ConformanceRules.all.filter { rule.contains($0.id) }
        let backends = backend.isEmpty ? Self.backends : Self.backends.filter { backend.contains($0.name) }
        let clockRules = rule.isEmpty ? ClockRules.all : ClockRules.all.filter { rule.contains($0.id) }
        let clocks = backend.isEmpty ? Self.clocks : Self.clocks.filter { backend.contains($0.name) }
        let executorRules =
            rule.isEmpty ? ExecutorSubjectRules.all : ExecutorSubjectRules.all.filter { rule.contains($0.id) }
        let executors = backend.isEmpty ? Self.executors : Self.executors.filter { backend.contains($0.name) }
        if child {
            // The checks run on a thread of their own while this (main) thread serves the main queue, which
            // MainThreadScheduler runs its work on; nothing else would drain it in a program with a synchronous main.
            let ids = rules.map(\.id)
            Self.servingMainQueue { IsolatedRun.runInChild(backend: backends[0], ruleIDs: ids) }
            return
        }
        // Each backend's checks run in child processes of this executable, so a crash fails one rule, not the run.
        let schedulerResults =
            rules.isEmpty || backends.isEmpty
            ? []
            : try IsolatedRun.runAll(
                rules: rules, backends: backends, executable: Bundle.main.executablePath ?? "/proc/self/exe",
                arguments: { ["conformance", "--child", "--backend", $0, "--rule"] + $1.map(\.rawValue) }
            ) { result, done, total in
                FileHandle.standardError.write(
                    Data(
                        "\r[\(done)/\(total)] \(result.ruleID) · \(result.backendName): \(result.outcome.label)\u{1B}[K"
                            .utf8))
            }
        FileHandle.standardError.write(Data("\n".utf8))
        // Clocks and executors are judged in this process, after the schedulers: the built-in ones are the standard
        // library's, the runtime's, NIO's, and SchedulerKit's over schedulers the matrix above has already run. This
        // thread serves the main queue meanwhile: MainActor's executor is one of the subjects.
        let families = Self.servingMainQueue {
            Self.blocking {
                [
                    ClockRules.family(
                        rules: clockRules, subjects: clocks,
                        results: await Self.judge(clocks, by: clockRules, with: { await $0.evaluate($1) })),
                    ExecutorSubjectRules.family(
                        rules: executorRules, subjects: executors,
                        results: await Self.judge(executors, by: executorRules, with: { await $0.evaluate($1) })),
                ]
            }
        }
        let results = schedulerResults + families.flatMap(\.results)
        let provenance = ReportProvenance(command: commandLine(), commit: gitCommit(), machine: machineDescription())
        let directory = URL(fileURLWithPath: output, isDirectory: true)
        do {
            try ConformanceReport.write(
                schedulerResults, rules: rules, backends: backends, families: families, provenance: provenance,
                to: directory)
        } catch {
            throw ValidationError(
                "cannot write reports to \(directory.path): \(error.localizedDescription); check the --output directory"
            )
        }
        // The page names the command that made it, so only a run of every rule on every backend rewrites it.
        if rule.isEmpty && backend.isEmpty {
            try AtomicFile.write(
                ConformanceReport.rulesPage(command: commandLine()), to: URL(fileURLWithPath: rulesPage))
        }
        let failures = results.filter(\.outcome.isFailure)
        let designReason = { (result: RuleResult) in
            backends.designReason(for: result) ?? families.lazy.compactMap { $0.designReason(for: result) }.first
        }
        let byDesign = failures.filter { designReason($0) != nil }
        for failure in failures {
            if designReason(failure) == nil {
                print(failure.failureMessage)
            } else {
                print("\(failure) [expected: fails by design]")
            }
        }
        let counts = Dictionary(grouping: results, by: \.outcome.label).mapValues(\.count)
        print(
            "conformance: "
                + ["passed", "failed", "declared", "n/a"].map { "\(counts[$0] ?? 0) \($0)" }.joined(separator: ", ")
                + (byDesign.isEmpty ? "" : " (\(byDesign.count) of the failures by design)")
                + "; wrote \(directory.path)/conformance.csv and CONFORMANCE.md")
        // Only a failure nobody expected is a regression.
        if failures.count > byDesign.count { throw ExitCode(1) }
    }

    /// Runs `body` on a new thread and pumps the main run loop (and so the main queue) until it returns.
    /// Every rule on every subject, subject by subject, with a progress line after each.
    static func judge<Subject: Sendable, Rule: Sendable>(
        _ subjects: [Subject], by rules: [Rule], with evaluate: @Sendable (Subject, Rule) async -> RuleResult
    ) async -> [RuleResult] {
        var results: [RuleResult] = []
        for subject in subjects {
            for rule in rules {
                let result = await evaluate(subject, rule)
                results.append(result)
                FileHandle.standardError.write(
                    Data("\r[\(results.count)/\(subjects.count * rules.count)] \(result)\u{1B}[K".utf8))
            }
        }
        FileHandle.standardError.write(Data("\n".utf8))
        return results
    }

    /// Runs async work from this synchronous command (the main thread is no thread of the cooperative pool).
    static func blocking<R: Sendable>(_ body: @escaping @Sendable () async -> R) -> R {
        let result = Locked<R?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let value = await body()
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return result.withLock { $0! }
    }

    static func servingMainQueue<R: Sendable>(_ body: @escaping @Sendable () -> R) -> R {
        let result = Locked<R?>(nil)
        let worker = Thread {
            let value = body()
            result.withLock { $0 = value }
        }
        worker.stackSize = 8 << 20
        worker.start()
        while true {
            if let value = result.withLock({ $0 }) { return value }
            RunLoop.main.run(until: Date(timeIntervalSinceNow: 0.01))
        }
    }

    private func commandLine() -> String {
        #if DEBUG
            let invocation = "swift run bench"
        #else
            let invocation = "swift run -c release bench"
        #endif
        return ([invocation] + CommandLine.arguments.dropFirst()).joined(separator: " ")
    }

    private func gitCommit() -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "rev-parse", "--short", "HEAD"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return "unknown" }
        process.waitUntilExit()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return process.terminationStatus == 0 && !text.isEmpty ? text : "unknown"
    }

    private func machineDescription() -> String {
        let info = ProcessInfo.processInfo
        return "\(info.hostName), \(info.activeProcessorCount) cores, \(info.operatingSystemVersionString)"
    }
}
