import Foundation

/// Who, where and what made a run. Every row of every CSV carries it, so a row can be cited on its own.
public struct RunMetadata: Sendable, Equatable {
    public var runID: String
    public var timestamp: String
    public var gitCommit: String
    public var host: String
    public var cpuModel: String
    public var cores: Int
    public var os: String
    public var swiftVersion: String
    public var build: String
    public var command: String
    /// The 1-minute load average when the run started: other work on the machine skews every figure.
    public var loadAverage: String
    /// Median cost of one monotonic clock read, subtracted from every latency sample.
    public var clockOverheadNanoseconds: Double

    /// Column names, in CSV order.
    public static let columns = [
        "run_id", "timestamp", "git_commit", "host", "cpu_model", "cores", "os", "swift_version", "build", "command",
        "load_average", "clock_overhead_ns",
    ]

    public var fields: [String] {
        [runID, timestamp, gitCommit, host, cpuModel, String(cores), os, swiftVersion, build, command, loadAverage,
         Format.number(clockOverheadNanoseconds)]
    }

    public init(fields record: [String: String]) {
        runID = record["run_id"] ?? ""
        timestamp = record["timestamp"] ?? ""
        gitCommit = record["git_commit"] ?? ""
        host = record["host"] ?? ""
        cpuModel = record["cpu_model"] ?? ""
        cores = Int(record["cores"] ?? "") ?? 0
        os = record["os"] ?? ""
        swiftVersion = record["swift_version"] ?? ""
        build = record["build"] ?? ""
        command = record["command"] ?? ""
        loadAverage = record["load_average"] ?? ""
        clockOverheadNanoseconds = Double(record["clock_overhead_ns"] ?? "") ?? 0
    }

    /// Collects the metadata of this machine and process now.
    public static func collect(command: String, clockOverhead: Double) -> RunMetadata {
        let date = Date()
        let stamp = ISO8601DateFormatter().string(from: date)
        let commit = shell("git", "rev-parse", "--short=12", "HEAD") ?? "unknown"
        let dirty = (shell("git", "status", "--porcelain", "--untracked-files=no") ?? "").isEmpty ? "" : "-dirty"
        let host = ProcessInfo.processInfo.hostName
        let idFormatter = DateFormatter()
        idFormatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        idFormatter.timeZone = TimeZone(identifier: "UTC")
        var record: [String: String] = [:]
        record["run_id"] = "\(idFormatter.string(from: date))-\(commit.prefix(7))"
        record["timestamp"] = stamp
        record["git_commit"] = commit + dirty
        record["host"] = host
        record["cpu_model"] = cpuModel()
        record["cores"] = String(ProcessInfo.processInfo.activeProcessorCount)
        record["os"] = operatingSystem()
        record["swift_version"] = (shell("swift", "--version") ?? "unknown").split(separator: "\n").first.map(String.init) ?? "unknown"
        #if DEBUG
        record["build"] = "debug"
        #else
        record["build"] = "release"
        #endif
        record["command"] = command
        record["load_average"] = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?
            .split(separator: " ").first.map(String.init) ?? "unknown"
        var metadata = RunMetadata(fields: record)
        metadata.clockOverheadNanoseconds = clockOverhead
        return metadata
    }

    static func cpuModel() -> String {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown" }
        let line = text.split(separator: "\n").first { $0.hasPrefix("model name") }
        return line.flatMap { $0.split(separator: ":", maxSplits: 1).last }.map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
    }

    static func operatingSystem() -> String {
        let release = (try? String(contentsOfFile: "/etc/os-release", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("PRETTY_NAME=") }
            .map { $0.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) } ?? "Linux"
        var names = utsname()
        uname(&names)
        let kernel = withUnsafeBytes(of: &names.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return "\(release); Linux \(kernel)"
    }

    /// Runs a tool and returns its trimmed standard output, or nil if it failed.
    static func shell(_ arguments: String...) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
