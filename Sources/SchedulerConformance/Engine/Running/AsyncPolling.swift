import SchedulerKit

/// Waits (polling every millisecond, on the monotonic clock) until `condition` holds; fails the check after `timeout`.
/// Polling keeps a check off any thread it would have to block: the cooperative pool may be busy with other tests.
/// The blocking checks of scheduler rules poll with `poll(upTo:until:)` or ``ConformanceContext``'s `waitUntil`.
func poll(_ what: String, timeout: Duration, _ condition: @Sendable () -> Bool) async throws {
    let start = SchedulerTime.monotonicNow()
    while !condition() {
        if start.duration(to: .monotonicNow()) > timeout {
            if condition() { return }
            throw RuleFailure("waited \(readable(timeout)) for \(what)")
        }
        try? await Task.sleep(for: .milliseconds(1))
    }
}
