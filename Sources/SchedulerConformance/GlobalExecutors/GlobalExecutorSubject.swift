import SchedulerKit

/// Swift's global executor, as one process has it: the runtime's own (Dispatch's threads on Linux), or one that took
/// it over through the runtime's global-enqueue hook (SwiftNIO's event loops, a `ThreadPool`). Every
/// `Task { }`, `Task.detached`, child task without a preference and default actor of the process runs there, so it
/// is judged apart from the executors an actor or a task chooses (``ExecutorSubject``).
///
/// The hook is one variable for the whole process: a subject is installed once, by its first check, and the process
/// then belongs to it. Check each global executor in a process of its own, as `bench conformance` does
/// (``IsolatedRun``, one child per subject) or a test does with an exit test; a second subject's check in the same
/// process fails, saying so.
///
/// ```swift
/// // In a child process of its own:
/// let subject = GlobalExecutorSubject(name: "MyGlobalExecutor") { MyGlobalExecutor.install() }
/// for rule in ConformanceRules.rules(for: .globalExecutor) { print(subject.evaluate(rule)) }
/// ```
public struct GlobalExecutorSubject: ConformanceSubject {
    public let name: String
    public let summary: String
    public let declarations: [RuleID: String]
    public let expectedFailures: [RuleID: String]
    /// Takes the process's global executor over (nothing to do for the runtime's own); false if it could not.
    let install: @Sendable () -> Bool
    /// True on a thread of this global executor; nil where it cannot tell (the runtime's own).
    let isOwnThread: (@Sendable () -> Bool)?
    /// The rules this subject did not finish in this process (their deadlines shorten the others').
    public let hangs = HangRecord()

    /// `install` takes the process's global executor over and returns whether it did; `isOwnThread`, where the
    /// executor can tell, says whether the calling thread is one of its own (GE1 then checks that the jobs ran there,
    /// so a takeover that silently did not happen fails).
    public init(
        name: String, summary: String = "", declarations: [RuleID: String] = [:],
        expectedFailures: [RuleID: String] = [:], isOwnThread: (@Sendable () -> Bool)? = nil,
        install: @escaping @Sendable () -> Bool
    ) {
        self.name = name
        self.summary = summary
        self.declarations = declarations
        self.expectedFailures = expectedFailures
        self.isOwnThread = isOwnThread
        self.install = install
    }

    /// The global-executor kind of subject: every one of its rules applies to each.
    public static let kind = SubjectKind(
        name: "global executor", plural: "global executors", noun: "global executor",
        inside: "a wait for tasks on the global executor",
        matrixTitle: "Matrix: global executors (Swift's, or one that took it over)",
        matrixIntro:
            "Swift's global executor as a process has it (`GlobalExecutorSubject`): the runtime's own, or one installed through the global-enqueue hook, each in a child process of its own (the hook is process-wide).",
        rerun: "subject.evaluate(RULE) in a process of its own")

    public var claims: NoClaims { NoClaims() }

    /// This process's global executor, installed by the first check: a check blocks the kit's check thread, since
    /// one that waited as a task would need the executor under test to run it.
    public func withFreshTarget(_ progress: CheckProgress, _ check: (GlobalExecutorUnderTest) throws -> String)
        throws -> String
    {
        try check(try GlobalExecutorUnderTest.installing(self))
    }

    /// Makes this the process's global executor, as its first check would (`bench` does so for a process that
    /// measures on it). False if it did not take over, or if another subject already did in this process. Unsafe as
    /// the takeovers themselves are: call it first thing, from one thread.
    @discardableResult
    public func unsafeInstall() -> Bool { (try? GlobalExecutorUnderTest.installing(self)) != nil }

    /// Runs `rule` in this process, installing this global executor first if no check has yet. Blocks the calling
    /// thread until the verdict (the check waits for tasks on the executor under test, so it is no task itself). Call
    /// it from a thread of your own, not from a task: a task blocked here holds a thread of the executor under test,
    /// and GE6 (a task started by a blocked job finds a free thread) would find none on a 2-thread executor.
    public func evaluate(_ rule: ConformanceRule) -> RuleResult { judge(rule) }
}

/// What a global-executor rule sees: the process's global executor, installed.
public struct GlobalExecutorUnderTest: Sendable {
    /// As the subject's: true on one of the executor's own threads, nil where it cannot tell.
    let isOwnThread: (@Sendable () -> Bool)?

    /// The process's one installation: the subject that took it, or the one whose takeover said no (not asked again:
    /// NIO's traps when called a second time), once one was tried.
    private static let installed = Locked<(name: String, tookOver: Bool)?>(nil)

    /// Installs `subject` if this process has no global executor under test yet; fails the check if another subject
    /// has it (a process belongs to one) or if the takeover did not happen.
    static func installing(_ subject: GlobalExecutorSubject) throws -> GlobalExecutorUnderTest {
        try installed.withLock { installed in
            if let installed, installed.name != subject.name {
                throw RuleFailure(
                    "this process's global executor is already \(installed.name): check each global executor in a process of its own (bench conformance, an exit test)"
                )
            }
            if installed == nil { installed = (subject.name, subject.install()) }
            guard installed?.tookOver == true else {
                throw RuleFailure(
                    "it did not take the global executor over: its takeover said no (another hook is installed, the runtime has none, or the program is statically linked and the takeover looks the hook up with dlsym, which finds no symbol there)"
                )
            }
        }
        return GlobalExecutorUnderTest(isOwnThread: subject.isOwnThread)
    }
}
