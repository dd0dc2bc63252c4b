import ArgumentParser
import Foundation
import SchedulerBench
import SchedulerBenchTool
import SchedulerConformance
import SchedulerKit
import ToolSupport

/// `bench conformance`: every conformance rule on every subject of the catalog (SchedulerKit's schedulers, the SwiftNIO
/// adapters, Combine's schedulers, the clocks and the executors), written to `conformance.csv` and `CONFORMANCE.md` in
/// the output directory (the same rule definitions `swift test` runs), and
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
            "The page of every rule with why it matters and what it catches, written when every rule runs on every backend (default: Docs/Rules.md, unless --output names another directory)."
    )
    var rulesPage: String?

    /// Where the rules page goes: the one asked for, or the repository's when the reports go to `Results`; a run
    /// whose reports go elsewhere (a scratch folder) leaves the repository as it was.
    var rulesPageToWrite: String? { rulesPage ?? (output == "Results" ? "Docs/Rules.md" : nil) }

    @Option(name: .long, parsing: .upToNextOption, help: "Only these rule ids (e.g. C2 T4); default: all.")
    var rule: [String] = []

    @Option(name: .long, parsing: .upToNextOption, help: "Only these backends (e.g. TestScheduler); default: all.")
    var backend: [String] = []

    /// Set by the parent: run the given rules on the one given backend in this process and print result lines.
    @Flag(name: .long, help: .hidden)
    var child = false

    /// The catalog: SchedulerKit's schedulers, then the peers' (SwiftNIO, Combine) whose traits are enabled, then
    /// the clocks and the executors.
    static let subjects = Catalog.everySubject

    func validate() throws {
        if let unknown = rule.first(where: { RuleID($0) == nil }) {
            throw ValidationError(
                "unknown rule '\(unknown)'; known: \(RuleID.all.map(\.rawValue).joined(separator: " "))")
        }
        if child && backend.count != 1 { throw ValidationError("--child takes exactly one --backend") }
        let names = Self.subjects.map(\.name)
        if let unknown = backend.first(where: { !names.contains($0) }) {
            throw ValidationError("unknown backend '\(unknown)'; known: \(names.joined(separator: " "))")
        }
    }

    func run() throws {
        let rule = Set(self.rule.compactMap(RuleID.init))
        let rules = rule.isEmpty ? ConformanceRules.all : ConformanceRules.all.filter { rule.contains($0.id) }
        let subjects = backend.isEmpty ? Self.subjects : Self.subjects.filter { backend.contains($0.name) }
        if child {
            // The checks run on a thread of their own while this (main) thread serves the main queue, which
            // MainThreadScheduler and the main actor's executor run their work on; nothing else would drain it in a
            // program with a synchronous main.
            let ids = rules.map(\.id)
            Self.servingMainQueue { IsolatedRun.runInChild(subject: subjects[0], ruleIDs: ids) }
            return
        }
        // Each subject's checks run in child processes of this executable, so a crash fails one rule, not the run.
        let results = try IsolatedRun.runAll(
            rules: rules, subjects: subjects, executable: Bundle.main.executablePath ?? "/proc/self/exe",
            arguments: { ["conformance", "--child", "--backend", $0, "--rule"] + $1.map(\.rawValue) }
        ) { result, done, total in
            FileHandle.standardError.write(
                Data(
                    "\r[\(done)/\(total)] \(result.ruleID) · \(result.backendName): \(result.outcome.label)\u{1B}[K"
                        .utf8))
        }
        FileHandle.standardError.write(Data("\n".utf8))
        let provenance = ReportProvenance(command: commandLine(), commit: gitCommit(), machine: machineDescription())
        let directory = URL(fileURLWithPath: output, isDirectory: true)
        do {
            try ConformanceReport.write(
                results, rules: rules, subjects: subjects, provenance: provenance, to: directory)
        } catch {
            throw ValidationError(
                "cannot write reports to \(directory.path): \(error.localizedDescription); check the --output directory"
            )
        }
        // The page names the command that made it, so only a run of every rule on every subject rewrites it.
        if rule.isEmpty && backend.isEmpty, let rulesPage = rulesPageToWrite {
            try AtomicFile.write(
                ConformanceReport.rulesPage(command: commandLine()), to: URL(fileURLWithPath: rulesPage))
        }
        let failures = results.filter(\.outcome.isFailure)
        let byDesign = failures.filter { subjects.designReason(for: $0) != nil }
        for failure in failures {
            if subjects.designReason(for: failure) == nil {
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
