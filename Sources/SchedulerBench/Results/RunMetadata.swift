import Foundation
import ToolSupport

/// Who, where and what made a run. Every row of every CSV carries it, so a row can be cited on its own.
public struct RunMetadata: Sendable, Equatable {
    public var runID = ""
    public var timestamp = ""
    public var gitCommit = ""
    public var host = ""
    public var cpuModel = ""
    public var cores = 0
    public var os = ""
    public var swiftVersion = ""
    public var build = ""
    public var command = ""
    /// The 1-minute load average when the run started: other work on the machine skews every figure.
    public var loadAverage = ""
    /// Median cost of one monotonic clock read, subtracted from every latency sample.
    public var clockOverheadNanoseconds = 0.0
    /// `full`, `quick` or `smoke`.
    public var scale = ""
    /// `all`, or the backends and workloads the run was narrowed to.
    var selection = ""
    /// The CPUs the process ran on, and whether `--cpus` put it there.
    public var cpus = ""
    public var pinned = false
    /// The round policy in words (rounds, their least length, extra rounds).
    public var roundPolicy = ""
    /// What identifies the machine for a calibration (`MachineFingerprint`).
    public var machine = ""
    /// Where context switches and migrations per round come from.
    public var schedulingCounters = ""

    /// The columns, in CSV order, each with the field it writes and reads.
    static let schema: [CSVColumn<RunMetadata>] = [
        .text("run_id", \.runID), .text("timestamp", \.timestamp), .text("git_commit", \.gitCommit),
        .text("host", \.host), .text("cpu_model", \.cpuModel), .integer("cores", \.cores), .text("os", \.os),
        .text("swift_version", \.swiftVersion), .text("build", \.build), .text("command", \.command),
        .text("load_average", \.loadAverage), .number("clock_overhead_ns", \.clockOverheadNanoseconds),
        .text("scale", \.scale), .text("selection", \.selection), .text("cpus", \.cpus), .flag("pinned", \.pinned),
        .text("round_policy", \.roundPolicy), .text("machine", \.machine),
        .text("scheduling_counters", \.schedulingCounters),
    ]

    /// Reads the columns of a CSV record; columns an older run did not write are empty.
    public init(fields record: [String: String]) { Self.schema.read(record, into: &self) }

    /// A full run of every workload on every backend: what `bench report` reports on unless told otherwise.
    public var isCompleteFullRun: Bool { scale == Scale.full.rawValue && selection == RunSelection.all }

    /// HEAD of the repository bench runs in, and `-dirty` when tracked files have changes.
    static func repositoryCommit() -> (commit: String, dirty: String) {
        let commit = (try? Command.output("git", ["rev-parse", "--short=12", "HEAD"])) ?? "unknown"
        let status = (try? Command.output("git", ["status", "--porcelain", "--untracked-files=no"])) ?? ""
        return (commit, status.isEmpty ? "" : "-dirty")
    }

    /// Collects the metadata of this machine and process now.
    static func collect(command: String, clockOverhead: Double) -> RunMetadata {
        let date = Date()
        let (commit, dirty) = ThisBuild.portableCommit.map { ($0, "") } ?? repositoryCommit()
        var record: [String: String] = [:]
        record["run_id"] = RunID.make(date: date, commit: commit)
        record["timestamp"] = ISO8601DateFormatter().string(from: date)
        record["git_commit"] = commit + dirty
        record["host"] = ProcessInfo.processInfo.hostName
        record["cpu_model"] = MachineFingerprint.cpuModel()
        record["cores"] = String(ProcessInfo.processInfo.activeProcessorCount)
        record["os"] = MachineFingerprint.operatingSystem()
        record["swift_version"] = ThisBuild.swiftDescription
        #if DEBUG
            record["build"] = "debug"
        #else
            record["build"] = ThisBuild.isPortable ? "release, portable" : "release"
        #endif
        record["command"] = command
        record["load_average"] =
            (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?
            .split(separator: " ").first.map(String.init) ?? "unknown"
        record["machine"] = MachineFingerprint.current.description
        var metadata = RunMetadata(fields: record)
        metadata.clockOverheadNanoseconds = clockOverhead
        return metadata
    }
}

/// What a run was narrowed to, in the `selection` column.
enum RunSelection {
    static let all = "all"

    /// "all", or "backends=a,b workloads=W1,W4" naming only what was narrowed.
    static func describe(backends: [Backend], workloads: [Workload]) -> String {
        var parts: [String] = []
        if backends.count != Backend.known.count {
            parts.append("backends=" + backends.map(\.id.rawValue).joined(separator: ","))
        }
        if workloads.count != Workload.all.count {
            parts.append("workloads=" + workloads.map(\.id.rawValue).joined(separator: ","))
        }
        return parts.isEmpty ? all : parts.joined(separator: " ")
    }
}
