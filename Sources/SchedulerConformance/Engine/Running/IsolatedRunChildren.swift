import Dispatch
import Foundation
import SchedulerKit

extension IsolatedRun {
    /// Every rule about each subject's kind on that subject, each subject's checks in child processes of
    /// `executable` started with `arguments(subjectName, ruleIDs)`; the child must call
    /// ``runInChild(subject:ruleIDs:)``. The child's standard
    /// error passes through, and its crash report joins the verdict. `progress(result, done, total)` follows each
    /// result as the child prints it.
    ///
    /// Bounded in time: a child that gives no result for a rule within that rule's deadline and a margin is killed,
    /// and the rule fails as not finished; once a child has ended, its pipes get a short grace (two seconds) to close
    /// (a crash handler it started may hold them open) before the next child starts.
    public static func runAll(
        rules: [ConformanceRule], subjects: [any ConformanceSubject], executable: String,
        arguments: (_ subject: String, _ ruleIDs: [RuleID]) -> [String],
        progress: (RuleResult, Int, Int) -> Void = { _, _, _ in }
    ) throws -> [RuleResult] {
        let total = subjects.reduce(0) { $0 + ConformanceReport.cells(rules, on: $1).count }
        var done = 0
        var results: [RuleResult] = []
        for subject in subjects {
            var run = IsolatedRun(subject: subject, rules: rules)
            var reported = Set<RuleID>()
            func report(_ all: [RuleResult]) {
                for result in all where reported.insert(result.ruleID).inserted {
                    done += 1
                    progress(result, done, total)
                }
            }
            report(run.results)  // declared and not-applicable rules, settled without a child
            while let ids = run.nextRules {
                let child = try ChildRun(executable: executable, arguments: arguments(subject.name, ids))
                let ended = child.follow(rules: ids.compactMap(ConformanceRules.rule)) { report([$0]) }
                run.absorb(output: child.output, crash: ended, diagnostics: child.diagnostics)
                report(run.results)
            }
            results += run.results
        }
        return results
    }

    /// How long a child's pipes may stay open after it ended.
    static let pipeGrace: Duration = .seconds(2)
    /// What a child gets beyond a rule's own deadline to print its result (its own deadline gives the verdict; this
    /// one only catches a child stuck outside it).
    static let childMargin: Duration = .seconds(30)
}

/// One child process of ``IsolatedRun/runAll(rules:subjects:executable:arguments:progress:)``: its output read line
/// by line on threads of its own, so the parent can stop waiting for it.
// @unchecked Sendable: `process` is started in `init` and then used only by the thread that calls `follow`; the
// reading threads touch only the mutexes, the semaphore and the group, which are Sendable.
private final class ChildRun: @unchecked Sendable {
    private let process: Process
    private let stdout = Locked<(text: String, pending: Data)>(("", Data()))
    private let stderr = Locked<String>("")
    private let lines = DispatchSemaphore(value: 0)
    private let closed = DispatchGroup()

    init(executable: String, arguments: [String]) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        // A crash report in seconds: the crashed thread's first frames, symbolicated fast, never waiting for a
        // debugger to attach.
        environment["SWIFT_BACKTRACE"] =
            "enable=yes,interactive=no,threads=crashed,registers=none,images=none,limit=\(IsolatedRun.framesShown + 4),top=0,symbolicate=fast,output-to=stderr"
        process.environment = environment
        let (out, err) = (Pipe(), Pipe())
        process.standardOutput = out
        process.standardError = err
        try process.run()
        read(out.fileHandleForReading) { [self] chunk in
            let complete = stdout.withLock { state -> Int in
                state.pending.append(chunk)
                var count = 0
                while let newline = state.pending.firstIndex(of: UInt8(ascii: "\n")) {
                    state.text += String(decoding: state.pending[state.pending.startIndex...newline], as: UTF8.self)
                    state.pending.removeSubrange(state.pending.startIndex...newline)
                    count += 1
                }
                return count
            }
            for _ in 0..<complete { lines.signal() }
        }
        read(err.fileHandleForReading) { [self] chunk in
            FileHandle.standardError.write(chunk)
            stderr.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
        }
    }

    var output: String { stdout.withLock { $0.text } }
    var diagnostics: String { stderr.withLock { $0 } }

    private func read(_ handle: FileHandle, _ chunk: @escaping @Sendable (Data) -> Void) {
        closed.enter()
        let thread = Thread { [closed] in
            while case let data = handle.availableData, !data.isEmpty { chunk(data) }
            closed.leave()
        }
        thread.start()
    }

    /// Waits for the child, reporting each result as it comes; kills it when a rule's result does not come within
    /// its deadline and ``IsolatedRun/childMargin``. Returns how it ended (nil: it exited normally).
    func follow(rules: [ConformanceRule], report: (RuleResult) -> Void) -> IsolatedRun.Crash? {
        var seen = 0
        var since = ContinuousClock.now
        func take() {
            let results = output.split(separator: "\n").compactMap { IsolatedRun.result(from: $0) }
            guard results.count > seen else { return }
            for result in results.dropFirst(seen) { report(result) }
            seen = results.count
            since = .now
        }
        var stopped: IsolatedRun.Crash?
        var end = self.end()
        while end == nil {
            if lines.wait(timeout: .now() + .milliseconds(100)) == .success {
                take()
            } else {
                // Past the last rule the child only has to exit; it gets the margin for that.
                let limit =
                    (seen < rules.count ? RuleDeadline.scaled(rules[seen].deadline) : .zero) + IsolatedRun.childMargin
                if stopped == nil, ContinuousClock.now - since > limit {
                    stopped = .stopped(afterSeconds: Int((ContinuousClock.now - since).components.seconds))
                    kill(process.processIdentifier, SIGKILL)
                }
            }
            end = self.end()
        }
        _ = closed.wait(timeout: .now() + .nanoseconds(Int(IsolatedRun.pipeGrace.nanosecondsChecked())))
        take()
        return stopped ?? end?.crash
    }

    /// How a child ended: nil for a normal exit.
    private struct End { let crash: IsolatedRun.Crash? }

    /// How the child ended, or nil while it runs. Read without reaping it: Foundation's `Process` on Linux learns of
    /// the end only once a socket the child inherited closes, and whatever the child left running (the Swift
    /// runtime's backtracer writing a long report, a process it spawned) holds that socket open, so `isRunning` and
    /// `waitUntilExit()` would wait for those too. `waitid` with `WNOWAIT` sees the end at once and leaves the child
    /// for Foundation to reap.
    private func end() -> End? {
        if !process.isRunning {
            if process.terminationReason == .uncaughtSignal { return End(crash: .signal(process.terminationStatus)) }
            return End(crash: process.terminationStatus == 0 ? nil : .exitStatus(process.terminationStatus))
        }
        let pid = process.processIdentifier
        var info = siginfo_t()
        guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0, info._sifields._sigchld.si_pid == pid
        else { return nil }
        let status = info._sifields._sigchld.si_status
        switch Int(info.si_code) {
        case Int(CLD_EXITED): return End(crash: status == 0 ? nil : .exitStatus(status))
        case Int(CLD_KILLED), Int(CLD_DUMPED): return End(crash: .signal(status))
        default: return nil  // stopped or continued: still running
        }
    }
}
