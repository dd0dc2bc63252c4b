import Foundation
import SchedulerKit

/// What a backend does with work that is still pending when the last reference to the scheduler goes away (rule L5).
public enum PendingWorkPolicy: String, Sendable {
    /// Pending work keeps the scheduler alive and runs; then the scheduler is freed.
    case runs
    /// Pending work never runs (nothing will drive it), and its closures are freed with the scheduler.
    case dropped
}

/// The schedulers one check works with, and how to clean up after it (e.g. shutting down a private pool).
public struct ConformanceSession: Sendable {
    let makeScheduler: @Sendable () -> any Scheduler
    let tearDown: @Sendable () -> Void

    /// `makeScheduler` must return a fresh scheduler per call where the backend can make more than one.
    public init(makeScheduler: @escaping @Sendable () -> any Scheduler, tearDown: @escaping @Sendable () -> Void = {}) {
        self.makeScheduler = makeScheduler
        self.tearDown = tearDown
    }
}

/// A scheduler type under test: how to make it, the promises it claims, and the rules it declares it does not keep.
public struct ConformanceBackend: Sendable, CustomStringConvertible {
    public let name: String
    public let traits: SchedulerTraits
    /// Rule id → why this backend does not keep that rule. Such a rule is reported as declared, never as passed.
    public let declarations: [String: String]
    /// Rule id → why this backend fails that rule by design (a wrapped primitive that behaves so). The rule still
    /// runs and a failure is reported as a failure; marking it expected lets a test suite or `bench conformance` tell
    /// it from a regression. It may not show in every run where the check catches it only when a race goes its way.
    public let expectedFailures: [String: String]
    public let pendingWorkOnRelease: PendingWorkPolicy
    private let openSession: @Sendable () -> ConformanceSession

    /// A backend whose every check gets a fresh session (`openSession` runs once per check).
    public init(
        name: String, traits: SchedulerTraits, declarations: [String: String] = [:],
        expectedFailures: [String: String] = [:], pendingWorkOnRelease: PendingWorkPolicy = .runs,
        openSession: @escaping @Sendable () -> ConformanceSession
    ) {
        self.name = name
        self.traits = traits
        self.declarations = declarations
        self.expectedFailures = expectedFailures
        self.pendingWorkOnRelease = pendingWorkOnRelease
        self.openSession = openSession
    }

    /// A backend made by a factory alone; its traits are read from one scheduler the factory makes.
    public init(
        name: String, declarations: [String: String] = [:], expectedFailures: [String: String] = [:],
        pendingWorkOnRelease: PendingWorkPolicy = .runs, makeScheduler: @escaping @Sendable () -> any Scheduler
    ) {
        self.init(
            name: name, traits: makeScheduler().traits, declarations: declarations,
            expectedFailures: expectedFailures, pendingWorkOnRelease: pendingWorkOnRelease
        ) {
            ConformanceSession(makeScheduler: makeScheduler)
        }
    }

    public var description: String { name }

    /// Declared first (a declaration is never hidden), then not-applicable by traits, else the check runs.
    public func outcomeWithoutRunning(_ rule: ConformanceRule) -> RuleOutcome? {
        if let reason = declarations[rule.id] { return .declared(reason: reason) }
        if !rule.applies(to: traits) { return .notApplicable }
        return nil
    }

    /// Runs `rule` on a fresh session of this backend (or reports why it does not run).
    public func evaluate(_ rule: ConformanceRule) -> RuleResult {
        let started = ContinuousClock.now
        let outcome: RuleOutcome
        if let settled = outcomeWithoutRunning(rule) {
            outcome = settled
        } else {
            let session = openSession()
            let context = ConformanceContext(backend: self, session: session)
            do {
                outcome = .passed(note: try rule.check(context))
            } catch let failure as RuleFailure {
                outcome = .failed(detail: failure.detail)
            } catch {
                outcome = .failed(detail: "check threw \(error)")
            }
            session.tearDown()
        }
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return RuleResult(ruleID: rule.id, backendName: name, outcome: outcome, seconds: seconds)
    }
}

extension Sequence where Element == ConformanceBackend {
    /// Why `result` is a failure by design (its backend's `expectedFailures` names the rule), or nil: a failed
    /// result with no reason here is a regression.
    public func designReason(for result: RuleResult) -> String? {
        guard result.outcome.isFailure else { return nil }
        return expectedFailureReason(for: result)
    }

    /// Why `result`'s backend may fail its rule by design, whatever the outcome of this run: some such failures
    /// depend on timing and do not show in every run, and a report says so rather than show a plain pass.
    public func expectedFailureReason(for result: RuleResult) -> String? {
        first { $0.name == result.backendName }?.expectedFailures[result.ruleID]
    }
}
