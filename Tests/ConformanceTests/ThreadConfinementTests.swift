import Foundation
import SchedulerConformance
import SchedulerKit
import Testing

/// A virtual-time scheduler that must be used from the thread that made it, as RxSwift's `HistoricalScheduler` is in
/// debug builds. Instead of trapping, it records each call that comes from another thread, so a test can name them.
final class ThreadConfinedVirtualScheduler: VirtualTimeDriver {
    let name = "thread-confined"
    private let inner = TestScheduler(name: "thread-confined")
    private let confinement: Confinement
    let claimsConfinement: Bool

    /// Each call from a thread other than `owner` is appended to `strayCalls`.
    init(claimsConfinement: Bool, owner: pthread_t = pthread_self(), strayCalls: Locked<[String]> = Locked([])) {
        self.claimsConfinement = claimsConfinement
        self.confinement = Confinement(owner: owner, strays: strayCalls)
    }

    var traits: SchedulerTraits { claimsConfinement ? inner.traits.union(.threadConfined) : inner.traits }
    var now: SchedulerTime { confinement.check("now") { inner.now } }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        confinement.check("schedule") { handle(inner.schedule(asCurrent(work))) }
    }

    func schedule(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) -> any Cancellable {
        confinement.check("schedule(at:)") { handle(inner.schedule(at: deadline, asCurrent(work))) }
    }

    func schedule(
        at start: SchedulerTime, every interval: Duration, leeway: Duration, _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        confinement.check("schedule(at:every:)") {
            handle(inner.schedule(at: start, every: interval, leeway: leeway, asCurrent(work)))
        }
    }

    func advance(by duration: Duration) { confinement.check("advance(by:)") { inner.advance(by: duration) } }
    func advance(to target: SchedulerTime) { confinement.check("advance(to:)") { inner.advance(to: target) } }
    func step() -> Bool { confinement.check("step") { inner.step() } }
    func run(maxSteps: Int) -> VirtualTimeRunOutcome {
        confinement.check("run") { inner.run(maxSteps: maxSteps) }
    }

    /// Its tasks see this scheduler, not the one inside, as current.
    private func asCurrent(_ work: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        { [unowned self] in Schedulers.performAsCurrent(self, work) }
    }

    private func handle(_ inner: any Cancellable) -> any Cancellable {
        ConfinedHandle(inner: inner, confinement: confinement)
    }

    /// The thread that made the scheduler, and the calls that came from any other.
    private final class Confinement: Sendable {
        let owner: pthread_t
        let strays: Locked<[String]>
        init(owner: pthread_t, strays: Locked<[String]>) {
            self.owner = owner
            self.strays = strays
        }

        func check<R>(_ call: String, _ body: () -> R) -> R {
            if pthread_equal(pthread_self(), owner) == 0 { strays.withLock { $0.append(call) } }
            return body()
        }
    }

    private struct ConfinedHandle: Cancellable {
        let inner: any Cancellable
        let confinement: Confinement
        func cancel() -> Bool { confinement.check("cancel") { inner.cancel() } }
        var isCancelled: Bool { confinement.check("isCancelled") { inner.isCancelled } }
    }
}

extension Conformance {
    /// Finding 6 of the kit-trust issue: a virtual-time scheduler confined to one thread crashed on 13 rules, because
    /// the kit drove it from threads of its own. With ``SchedulerTraits/threadConfined`` claimed, the kit calls it from
    /// the check's thread alone (and the rules that need several threads are n/a); without, the kit may call it from
    /// anywhere, which this scheduler records.
    @Suite struct ThreadConfinement {
        static func backend(claimsConfinement: Bool) -> (ConformanceBackend, Locked<[String]>) {
            let strays = Locked<[String]>([])
            let backend = ConformanceBackend(
                name: claimsConfinement ? "confined, and says so" : "confined, and does not say so",
                traits: ThreadConfinedVirtualScheduler(claimsConfinement: claimsConfinement).traits,
                pendingWorkOnRelease: .dropped
            ) {
                // The session opens on the check's thread: the thread its schedulers are confined to.
                let owner = pthread_self()
                return ConformanceSession(makeScheduler: {
                    ThreadConfinedVirtualScheduler(
                        claimsConfinement: claimsConfinement, owner: owner, strayCalls: strays)
                })
            }
            return (backend, strays)
        }

        @Test(
            "A scheduler that claims thread confinement is only ever called from the check's thread",
            arguments: ConformanceRules.rules(for: .scheduler))
        func confinedSubjectIsCalledFromOneThread(_ rule: ConformanceRule) {
            let (backend, strays) = Self.backend(claimsConfinement: true)
            let outcome = backend.evaluate(rule).outcome
            #expect(!outcome.isFailure, "\(rule.id): \(outcome.detail)")
            let calls = strays.withLock { $0 }
            #expect(calls.isEmpty, "\(rule.id) called it from another thread: \(Set(calls).sorted())")
        }

        /// The check above could pass by luck if no rule ever used another thread; this one shows that without the
        /// claim the kit does, so the claim is what keeps the calls on one thread.
        @Test("Without the claim, the kit calls a virtual-time scheduler from threads of its own")
        func unclaimedSubjectIsCalledFromOtherThreads() {
            let (backend, strays) = Self.backend(claimsConfinement: false)
            var rulesWithStrayCalls: [RuleID] = []
            for rule in ConformanceRules.all where [.s1, .c2, .k2, .v8].contains(rule.id) {
                _ = backend.evaluate(rule)
                if !strays.withLock({ $0 }).isEmpty { rulesWithStrayCalls.append(rule.id) }
                strays.withLock { $0 = [] }
            }
            #expect(rulesWithStrayCalls == [.s1, .c2, .k2, .v8])
        }
    }
}
