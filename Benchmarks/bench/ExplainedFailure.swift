import SchedulerBench
import SchedulerBenchTool
import ToolSupport

/// A failure of the libraries as `bench` says it: one line that says what to do. The libraries' errors are typed by
/// kind (a request, a relaunch, a file, a child process, instruction counting) and name no flag; here each one
/// becomes the line a user of the command line reads, with its settings spelt as the flags that set them.
protocol ExplainedFailure: Error {
    var explanation: String { get }
}

extension RequestError: ExplainedFailure {
    var explanation: String { description(naming: \.flag) }
}

extension RunSetting {
    /// The flag of `bench run` that sets it.
    var flag: String {
        switch self {
        case .rounds: "--rounds"
        case .roundMilliseconds: "--round-ms"
        case .extraSeconds: "--time-budget"
        case .cpus: "--cpus"
        case .backend: "--backend"
        case .workload: "--workload"
        case .allocator: "--allocator"
        case .output: "--output"
        }
    }
}

extension BenchError: ExplainedFailure {
    var explanation: String { description }
}

extension RunStore.Failure: ExplainedFailure {
    var explanation: String {
        guard case .unusable(let problem) = self else { return description }
        return "\(problem); fix it or choose another folder"
    }
}

extension Machine.Failure: ExplainedFailure {
    var explanation: String { description }
}

extension Command.Failure: ExplainedFailure {
    var explanation: String { description }
}

extension InstructionCount.Failure: ExplainedFailure {
    var explanation: String { description }
}

extension AtomicFile.Failure: ExplainedFailure {
    var explanation: String { description }
}

extension CSV.ParseError: ExplainedFailure {
    var explanation: String { "\(description); pass a run folder or a CSV file written by bench" }
}

extension ChildProcess.Failure: ExplainedFailure {
    var explanation: String { "a child process failed (\(description))" }
}
