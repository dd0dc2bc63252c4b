import CSwiftRuntimeHooks

/// The message the Swift runtime keeps for a crash report, as a schedule found it. Each misuse the runtime reports (a
/// `CheckedContinuation` dropped without a resume) is written to standard error and also appended to that message,
/// and the previous copy is never freed (a crashing thread may be reading it): the thousandth schedule that drops a
/// continuation would pay for every earlier report of the process, megabytes and milliseconds. A schedule puts the
/// message back as it found it after each of its jobs, so it pays for each of its own reports once, and nothing more
/// (the lines are on standard error already; a crash later in the process shows the messages from before the
/// exploration).
struct RuntimeCrashMessage {
    private let found = schedulerkit_runtime_crash_message()

    /// Drops what the schedule's jobs added since the last call: a load where nothing was reported.
    func dropAdditions() {
        let now = schedulerkit_runtime_crash_message()
        if now != found { _ = schedulerkit_restore_runtime_crash_message(now, found) }
    }
}
