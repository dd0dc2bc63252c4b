import ToolSupport

/// A setting of a run request. The library names it as the ``RunRequest`` property that holds it (`rounds`), for a
/// program that builds one; the `bench` command line spells it as its flag (`--rounds`).
public enum RunSetting: String, Sendable, CaseIterable {
    case rounds
    case roundMilliseconds
    case extraSeconds
    case cpus
    case backend = "backends"
    case workload = "workloads"
    case allocator
    case output = "outputDirectory"
}

/// Why a ``RunRequest`` cannot be carried out, found before anything runs: typed, so that a caller can tell the cases
/// apart and the command line can name its own flags. Each reads as one line that says what to do.
public enum RequestError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A number outside what the setting accepts (`allowed` reads "between 1 and 1000").
    case outOfRange(RunSetting, value: String, allowed: String)
    /// A backend or workload this process does not know.
    case unknown(RunSetting, value: String)
    /// No selected workload runs on any selected backend.
    case nothingToRun
    /// CPUs this process may not run on.
    case cpusNotAllowed(requested: CPUSet, allowed: CPUSet)
    /// The folder the run would be written to cannot take it (`problem` says why).
    case unusableOutput(problem: String)
    /// The allocator asked for cannot be used here (`problem` says why: jemalloc missing, unloadable, not live).
    case allocatorUnavailable(problem: String)

    public var description: String { description(naming: \.rawValue) }

    /// The line, with each setting named as `naming` spells it (the command line: its flags).
    public func description(naming: (RunSetting) -> String) -> String {
        switch self {
        case .outOfRange(let setting, let value, let allowed):
            return "\(naming(setting)) must be \(allowed), got \(value)"
        case .unknown(let setting, let value):
            return "unknown \(naming(setting)) '\(value)' (see bench list, or Backend.known and Workload.all)"
        case .nothingToRun:
            return "no selected workload runs on a selected backend; see bench list for which run where"
        case .cpusNotAllowed(let requested, let allowed):
            return "\(naming(.cpus)) \(requested): this process may run only on CPUs \(allowed); pick a subset of them"
        case .unusableOutput(let problem):
            return "\(problem); fix it or choose another folder (\(naming(.output)))"
        case .allocatorUnavailable(let problem):
            return "\(problem), or choose the system allocator (\(naming(.allocator)) system)"
        }
    }
}
