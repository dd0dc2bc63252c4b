import Foundation

/// Makes the process run under the allocator a benchmark asks for, by re-executing itself with or without
/// `LD_PRELOAD` of jemalloc. The environment variable `marker` stops a second re-execution.
package enum Relaunch {
    static let marker = "SCHEDULER_BENCH_RELAUNCHED"
    /// Carries the command a person typed into child processes (for the metadata of the rows they write).
    static let parentCommandVariable = "SCHEDULER_BENCH_COMMAND"

    /// The environment of a child `bench run`: it chooses its allocator itself, and its rows name the command that
    /// the person typed (`commandLine`).
    package static func childEnvironment(commandLine: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment[marker] = nil
        environment[parentCommandVariable] = commandLine
        return environment
    }

    /// The environment of a child that must run under jemalloc as it starts, never re-executing itself (the
    /// instruction probe under valgrind): jemalloc preloaded where it is installed.
    package static func preloadedEnvironment() -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment[marker] = "1"
        if let library = Jemalloc.installedLibrary { environment["LD_PRELOAD"] = library }
        return environment
    }

    /// What to do instead, after a line that says why jemalloc cannot be used.
    static func jemallocUnavailable(_ problem: String) -> RequestError { .allocatorUnavailable(problem: problem) }

    /// Throws a one-line error unless a run under `allocator` can start here (jemalloc installed and loadable).
    static func checkAvailable(_ allocator: AllocatorChoice) throws {
        guard allocator == .jemalloc, !Jemalloc.isLive else { return }
        guard let library = Jemalloc.installedLibrary else { throw missing }
        // A file that is not a shared object would only get the loader's warning and no jemalloc; say so in one
        // line instead. (Loading it here with dlopen is no test: jemalloc's TLS model refuses late loading.)
        guard isSharedObject(library) else {
            throw jemallocUnavailable(
                "jemalloc cannot be loaded (\(library) is not an ELF shared object): reinstall it with scripts/setup.sh"
            )
        }
    }

    /// Returns when the process already runs under `allocator`; otherwise replaces the process (never returns) or
    /// throws.
    package static func ensure(_ allocator: AllocatorChoice) throws {
        let environment = ProcessInfo.processInfo.environment
        let relaunched = environment[marker] != nil
        switch allocator {
        case .both:
            return
        case .jemalloc:
            if Jemalloc.isLive { return }
            if relaunched { throw notLive }
            try checkAvailable(.jemalloc)
            guard let library = Jemalloc.installedLibrary else { throw missing }
            let preload = [environment["LD_PRELOAD"], library].compactMap { $0 }.filter { !$0.isEmpty }
            try reexecute(setting: ["LD_PRELOAD": preload.joined(separator: ":")], removing: [])
        case .system:
            if !Jemalloc.isLive { return }
            if relaunched { throw execFailed("jemalloc is still loaded without LD_PRELOAD") }
            try reexecute(setting: [:], removing: ["LD_PRELOAD"])
        }
    }

    static var missing: RequestError {
        jemallocUnavailable(
            "jemalloc is not installed: run scripts/setup.sh (or apt-get install -y libjemalloc-dev)")
    }

    static var notLive: RequestError {
        jemallocUnavailable("jemalloc was preloaded but is not live in this process: check LD_PRELOAD")
    }

    static func execFailed(_ why: String) -> BenchError {
        .machine(
            "could not re-execute bench under the requested allocator (\(why)); run it with LD_PRELOAD set yourself")
    }

    static func isSharedObject(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 4)) == Data([0x7F, 0x45, 0x4C, 0x46])
    }

    private static func reexecute(setting: [String: String], removing: [String]) throws -> Never {
        var environment = ProcessInfo.processInfo.environment
        for key in removing { environment[key] = nil }
        for (key, value) in setting { environment[key] = value }
        environment[marker] = "1"
        let arguments = CommandLine.arguments
        let cArguments = arguments.map { strdup($0) } + [nil]
        let cEnvironment = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        execve("/proc/self/exe", cArguments, cEnvironment)
        throw execFailed(String(cString: strerror(errno)))
    }
}
