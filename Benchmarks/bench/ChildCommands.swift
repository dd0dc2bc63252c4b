import ArgumentParser
import Foundation
import SchedulerBench
import SchedulerBenchTool
import SchedulerConformance
import ToolSupport

/// The relaunch contract on the command line: how each ``ChildJob`` becomes the arguments of a child `bench`, and
/// the hidden commands that parse them back. The only place a child's command line is spelt.
struct BenchLauncher: ChildLauncher {
    func arguments(for job: ChildJob) -> [String] {
        switch job {
        case .run(let request):
            // Only options every earlier `bench run` understood are passed unless set, so that `bench ab` can run the
            // baseline's build of it.
            var arguments = ["run"] + selection(request.backends, request.workloads)
            switch request.scale {
            case .full: break
            case .quick: arguments.append("--quick")
            case .smoke: arguments += ["--scale", Scale.smoke.rawValue]
            }
            if let rounds = request.rounds { arguments += ["--rounds", String(rounds)] }
            if let milliseconds = request.roundMilliseconds { arguments += ["--round-ms", String(milliseconds)] }
            if let extra = request.extraSeconds { arguments += ["--time-budget", String(extra)] }
            if let cpus = request.cpus { arguments += ["--cpus", cpus.description] }
            arguments += ["--allocator", request.allocator.rawValue]
            if let output = request.outputDirectory { arguments += ["--output", output] }
            if let runID = request.runID { arguments += ["--run-id", runID] }
            return arguments
        case .countAllocations(let backends, let workloads, let scale):
            return [CountAllocationsCommand.name, "--scale", scale.rawValue] + selection(backends, workloads)
        case .probeInstructions(let backend, let tasks):
            return [ProbeInstructionsCommand.name, "--backend", backend.rawValue, "--tasks", String(tasks)]
        case .countGlobalJobs(let workloads, let scale):
            return [CountGlobalJobsCommand.name, "--scale", scale.rawValue] + selection(nil, workloads)
        }
    }

    private func selection(_ backends: [BackendID]?, _ workloads: [WorkloadID]?) -> [String] {
        (backends.map { ["--backend", $0.map(\.rawValue).joined(separator: ",")] } ?? [])
            + (workloads.map { ["--workload", $0.map(\.rawValue).joined(separator: ",")] } ?? [])
    }
}

/// The allocation pass's child process (started by `bench run`, with thread caches off): prints the counts as CSV.
struct CountAllocationsCommand: ParsableCommand {
    static let name = "count-allocations"
    static let configuration = CommandConfiguration(commandName: name, shouldDisplay: false)

    @Option(name: .long) var backend: [String] = []
    @Option(name: .long) var workload: [String] = []
    @Option(name: .long) var scale: String = Scale.full.rawValue

    func run() throws {
        guard let scale = Scale(rawValue: scale) else {
            throw BenchError.setting("unknown scale '\(scale)'; use full, quick or smoke")
        }
        let output = try AllocationPass.countInChild(
            backends: try Selection.backends(backend) ?? Catalog.allBackends.map(\.id),
            workloads: try Selection.workloads(workload) ?? Workload.all.map(\.id), scale: scale
        ) { Console.error("bench: \($0)") }
        print(output, terminator: "")
    }
}

/// The global-job count's child process (started by `bench global-executors` on each global executor): prints CSV.
struct CountGlobalJobsCommand: ParsableCommand {
    static let name = "count-global-jobs"
    static let configuration = CommandConfiguration(commandName: name, shouldDisplay: false)

    @Option(name: .long) var workload: [String] = []
    @Option(name: .long) var scale: String = Scale.quick.rawValue

    func run() throws {
        guard let scale = Scale(rawValue: scale) else {
            throw BenchError.setting("unknown scale '\(scale)'; use full, quick or smoke")
        }
        let workloads = try Selection.workloads(workload) ?? GlobalExecutorContestRequest.defaultWorkloads
        print(GlobalJobCount.csv(workloads, scale: scale), terminator: "")
    }
}

/// The instruction probe's child process (started under valgrind by `bench check`).
struct ProbeInstructionsCommand: ParsableCommand {
    static let name = "probe-instructions"
    static let configuration = CommandConfiguration(commandName: name, shouldDisplay: false)

    @Option(name: .long) var backend: String
    @Option(name: .long) var tasks: Int

    func run() throws {
        guard let id = try Selection.backends([backend])?.first, let backend = Catalog.backend(id) else {
            throw BenchError.setting("unknown backend '\(self.backend)'")
        }
        InstructionProbe.run(backend: backend, tasks: tasks)
    }
}
