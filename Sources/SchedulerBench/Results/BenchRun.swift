import Foundation

/// What `bench run` was asked for, after parsing.
public struct RunRequest: Sendable {
    public var backendNames: [String]
    public var workloadNames: [String]
    public var rounds: Int?
    public var scale: Scale
    public var allocator: AllocatorChoice
    /// Where the run folder goes; nil: `Results/` for full runs, `Results/quick/` (git-ignored) for quick ones.
    public var outputDirectory: String?
    /// Given by a parent process that runs one child per allocator, so that both share one run id.
    public var runID: String?

    public init(backendNames: [String], workloadNames: [String], rounds: Int?, scale: Scale, allocator: AllocatorChoice,
                outputDirectory: String?, runID: String?) {
        self.backendNames = backendNames
        self.workloadNames = workloadNames
        self.rounds = rounds
        self.scale = scale
        self.allocator = allocator
        self.outputDirectory = outputDirectory
        self.runID = runID
    }

    public var resultsRoot: String { outputDirectory ?? (scale == .full ? "Results" : "Results/quick") }
}

/// A request that cannot be run; its description is the one line the user sees.
public struct BenchError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// `bench run`: resolves names, runs under the right allocator, writes the run folder.
public enum BenchRun {
    public static func backends(_ names: [String]) throws -> [Backend] {
        try select(names, all: Backend.all, find: Backend.named) { name in
            "unknown backend '\(name)'; choose from \(Backend.all.map(\.name).joined(separator: ", ")) (see bench list)"
        }
    }

    public static func workloads(_ names: [String]) throws -> [Workload] {
        try select(names, all: Workload.all, find: Workload.named) { name in
            "unknown workload '\(name)'; choose from W1…W14 or \(Workload.all.map(\.name).joined(separator: ", ")) (see bench list)"
        }
    }

    /// Names given as repeated or comma-separated options; none means all.
    static func select<Item>(_ names: [String], all: [Item], find: (String) -> Item?,
                             unknown: (String) -> String) throws -> [Item] {
        let split = names.flatMap { $0.split(separator: ",").map(String.init) }
        guard !split.isEmpty else { return all }
        return try split.map { name in
            guard let item = find(name) else { throw BenchError(unknown(name)) }
            return item
        }
    }

    /// Runs the request in this process (one allocator) and writes `<root>/<run-id>/`. Returns the folder and rows.
    public static func perform(_ request: RunRequest, commandLine: String,
                               progress: @escaping (Int, Int, String) -> Void, log: (String) -> Void) throws -> (URL, RunResults) {
        let backends = try backends(request.backendNames)
        let workloads = try workloads(request.workloadNames)
        if let rounds = request.rounds, rounds < 1 { throw BenchError("--rounds must be at least 1, got \(rounds)") }
        let allocator = request.allocator
        precondition(allocator != .both, "perform runs one allocator; runBoth runs two children")
        try Relaunch.ensure(allocator)
        if allocator == .jemalloc {
            guard let proof = Jemalloc.liveProof() else { throw Relaunch.Failure.jemallocNotLive }
            log(proof)
        } else {
            log("system allocator (glibc malloc): jemalloc is not loaded; allocation counts are not available")
        }
        let command = ProcessInfo.processInfo.environment[parentCommandVariable] ?? commandLine
        var metadata = RunMetadata.collect(command: command, clockOverhead: BenchClock.overhead)
        if let runID = request.runID { metadata.runID = runID }
        log("run \(metadata.runID) on \(metadata.host) (\(metadata.cpuModel), \(metadata.cores) cores, load \(metadata.loadAverage)); clock read costs \(Format.short(metadata.clockOverheadNanoseconds)) ns")
        let folder = URL(fileURLWithPath: request.resultsRoot).appendingPathComponent(metadata.runID)
        if FileManager.default.fileExists(atPath: folder.path) { throw BenchError("\(folder.path) already exists; results are never overwritten") }
        let runner = Runner(backends: backends, workloads: workloads, scale: request.scale, rounds: request.rounds)
        let timed = runner.run(progress: progress)
        let observations = AllocationPass.merge(AllocationPass.run(for: runner, log: log), into: timed)
        let results = RunResults(observations: observations, metadata: metadata, allocator: allocator.rawValue)
        try results.write(to: folder)
        return (folder, results)
    }

    /// `--allocator both`: runs this executable once per allocator (each re-executes itself as needed) with a shared
    /// run id, then merges their CSVs into one run folder.
    public static func performBoth(_ request: RunRequest, arguments: [String], commandLine: String,
                                   log: (String) -> Void) throws -> (URL, RunResults) {
        let runID = request.runID ?? RunMetadata.collect(command: "", clockOverhead: 0).runID
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(runID)-\(getpid())")
        defer { try? FileManager.default.removeItem(at: scratch) }
        var parts: [(summary: String, samples: String)] = []
        for allocator in AllocatorChoice.both.passes {
            let child = Process()
            child.executableURL = URL(fileURLWithPath: "/proc/self/exe")
            child.arguments = replacing(arguments, allocator: allocator, output: scratch.path, runID: runID)
            var environment = ProcessInfo.processInfo.environment
            environment[Relaunch.marker] = nil
            environment[parentCommandVariable] = commandLine
            child.environment = environment
            child.standardOutput = FileHandle.nullDevice  // the parent prints the merged table
            log("allocator pass: \(allocator.rawValue)")
            try child.run()
            child.waitUntilExit()
            guard child.terminationStatus == 0 else {
                throw BenchError("the \(allocator.rawValue) pass failed (exit \(child.terminationStatus)); nothing was written")
            }
            let folder = scratch.appendingPathComponent(runID)
            let summary = try String(contentsOf: folder.appendingPathComponent("summary.csv"), encoding: .utf8)
            let samples = try String(contentsOf: folder.appendingPathComponent("samples.csv"), encoding: .utf8)
            parts.append((summary, samples))
            try FileManager.default.removeItem(at: folder)
        }
        let folder = URL(fileURLWithPath: request.resultsRoot).appendingPathComponent(runID)
        let summaryText = try concatenate(parts.map(\.summary))
        let samplesText = try concatenate(parts.map(\.samples))
        try writeFolder(folder, files: ["summary.csv": summaryText, "samples.csv": samplesText])
        let rows = try SummaryRow.read(folder.appendingPathComponent("summary.csv").path)
        return (folder, RunResults(summary: rows, samples: []))
    }

    /// Carries the command a person typed into the child processes of `--allocator both`, for the metadata.
    static let parentCommandVariable = "SCHEDULER_BENCH_COMMAND"

    /// The child's arguments: the parent's, with the allocator, output folder and run id replaced.
    static func replacing(_ arguments: [String], allocator: AllocatorChoice, output: String, runID: String) -> [String] {
        var kept: [String] = []
        var skipNext = false
        for argument in arguments {
            if skipNext { skipNext = false; continue }
            if ["--allocator", "--output", "--run-id"].contains(argument) { skipNext = true; continue }
            if ["--allocator=", "--output=", "--run-id="].contains(where: argument.hasPrefix) { continue }
            kept.append(argument)
        }
        if kept.first.map({ ["run"].contains($0) }) != true { kept.insert("run", at: 0) }
        return kept + ["--allocator", allocator.rawValue, "--output", output, "--run-id", runID]
    }

    /// CSV files with one header, concatenated (the header once).
    static func concatenate(_ texts: [String]) throws -> String {
        var header: [String]?
        var rows: [[String]] = []
        for text in texts {
            let decoded = try CSV.decode(text)
            guard let first = decoded.first else { continue }
            if header == nil { header = first }
            guard header == first else { throw BenchError("allocator passes wrote different CSV headers; rebuild and run again") }
            rows += decoded.dropFirst()
        }
        return CSV.encode((header.map { [$0] } ?? []) + rows)
    }

    /// Writes `files` into a new folder: first into a hidden temporary folder beside it, which is then renamed, so
    /// that an error leaves no half-written run folder behind.
    static func writeFolder(_ folder: URL, files: [String: String]) throws {
        let manager = FileManager.default
        guard !manager.fileExists(atPath: folder.path) else { throw BenchError("\(folder.path) already exists; results are never overwritten") }
        let parent = folder.deletingLastPathComponent()
        try manager.createDirectory(at: parent, withIntermediateDirectories: true)
        let temporary = parent.appendingPathComponent(".\(folder.lastPathComponent).partial")
        try? manager.removeItem(at: temporary)
        try manager.createDirectory(at: temporary, withIntermediateDirectories: false)
        do {
            for (name, text) in files { try CSV.writeAtomically(text, to: temporary.appendingPathComponent(name)) }
            try manager.moveItem(at: temporary, to: folder)
        } catch {
            try? manager.removeItem(at: temporary)
            throw error
        }
    }
}
