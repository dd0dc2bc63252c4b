import CBenchSystem
import Foundation
import SchedulerKit

/// Context switches and CPU migrations of the whole process: what the kernel's scheduler did to a round.
///
/// Read from perf software counters opened on the main thread at ``start()`` and inherited by every thread created
/// after it (perf software events work in VMs that have no hardware counters). Where perf is refused, context
/// switches come from `getrusage` (every thread, exited ones included) and migrations are not known.
enum SchedulingCounters {
    struct Reading: Sendable {
        var contextSwitches: UInt64
        var migrations: UInt64?
    }

    private struct Descriptors {
        var contextSwitches: Int32 = -1
        var migrations: Int32 = -1
        var started = false
    }

    /// `Locked`, not `Mutex`, so that ThreadSanitizer sees the ordering (see `Locked`).
    private static let descriptors = Locked(Descriptors())

    /// Opens the counters; call before the threads to be counted exist. Returns where the figures come from.
    @discardableResult
    static func start() -> String {
        descriptors.withLock { state in
            if !state.started {
                state.started = true
                state.contextSwitches = cbench_perf_open_software(cbench_perf_context_switches())
                state.migrations = cbench_perf_open_software(cbench_perf_cpu_migrations())
            }
            return state.contextSwitches >= 0 && state.migrations >= 0
                ? "perf software counters (context switches, CPU migrations) of every thread"
                : "getrusage (context switches only: perf_event_open was refused)"
        }
    }

    /// The counts so far; nil before ``start()``.
    static func read() -> Reading? {
        let (switchesFD, migrationsFD, started) = descriptors.withLock {
            ($0.contextSwitches, $0.migrations, $0.started)
        }
        guard started else { return nil }
        var switches: UInt64 = 0
        var migrations: UInt64 = 0
        if switchesFD >= 0, cbench_perf_read(switchesFD, &switches) == 0 {
            let moved = migrationsFD >= 0 && cbench_perf_read(migrationsFD, &migrations) == 0
            return Reading(contextSwitches: switches, migrations: moved ? migrations : nil)
        }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Reading(contextSwitches: UInt64(usage.ru_nvcsw + usage.ru_nivcsw), migrations: nil)
    }
}
