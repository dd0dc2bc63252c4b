import ArgumentParser
import Foundation
import SchedulerBench
import SchedulerBenchTool
import ToolSupport

/// Output of the executable: errors as one line, a progress line on stderr, the command line for the metadata.
enum Console {
    /// Parses and runs, turning every failure into one line on stderr and a non-zero exit (help stays as it is).
    static func main(_ command: any ParsableCommand.Type) {
        GlobalExecutorChoice.installIfAsked()
        PlantedDelay.plantIfAsked()
        // The project's own schedulers, made known by id to the runtime before any setting names one.
        Catalog.registerBackends()
        do {
            var parsed = try command.parseAsRoot()
            try parsed.run()
        } catch let failure as any ExplainedFailure {
            fail(failure.explanation)
        } catch let code as ExitCode {
            // The command has already said why (e.g. which conformance checks failed).
            endProgress()
            exit(code.rawValue)
        } catch {
            if command.exitCode(for: error) == .success || error is CleanExit {
                command.exit(withError: error)
            }
            let message = command.message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
            fail("\(message) (see bench --help)")
        }
    }

    static func fail(_ message: String) -> Never {
        endProgress()
        error("bench: error: \(message)")
        exit(1)
    }

    /// A generated file's text into `output` (written whole or not at all), or onto standard output.
    static func emit(_ text: String, to output: String?) throws {
        guard let output else { return print(text, terminator: "") }
        try AtomicFile.write(text, to: URL(fileURLWithPath: output))
        error("bench: wrote \(output)")
    }

    static func error(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    static var commandLine: String {
        (["bench"] + CommandLine.arguments.dropFirst()).joined(separator: " ")
    }

    private static let isTerminal = isatty(STDERR_FILENO) != 0
    private static let started = Date()
    // nonisolated(unsafe): only the main thread prints progress (the runner calls back on the thread that runs it).
    nonisolated(unsafe) private static var lastLine = ""

    /// The progress line: rewritten in place on a terminal; one line per workload configuration in a log.
    static func progress(_ done: Int, _ total: Int, _ what: String) {
        let elapsed = Int(Date().timeIntervalSince(started))
        let line = String(
            format: "[%3d%%] %@  (%dm%02ds)", total == 0 ? 100 : done * 100 / total, what, elapsed / 60, elapsed % 60)
        if isTerminal {
            FileHandle.standardError.write(Data(("\r\u{1B}[K" + line).utf8))
            lastLine = line
        } else {
            let configuration = what.components(separatedBy: " · ").first ?? what
            if configuration != lastLine {
                lastLine = configuration
                error(line)
            }
        }
    }

    static func endProgress() {
        if isTerminal && !lastLine.isEmpty { FileHandle.standardError.write(Data("\n".utf8)) }
        lastLine = ""
    }
}
