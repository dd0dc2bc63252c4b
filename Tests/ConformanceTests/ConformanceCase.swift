import SchedulerConformance
import SchedulerKit
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// One (rule, backend) pair that the backend either is checked against or declares it does not keep.
struct ConformanceCase: Sendable, CustomTestStringConvertible {
    let rule: ConformanceRule
    let backend: ConformanceBackend

    var declaration: String? { backend.declarations[rule.id] }

    var testDescription: String {
        "\(rule.id) · \(backend.name)" + (declaration.map { " — declared: \($0)" } ?? "")
    }

    /// Runs the check and turns its outcome into test results: a pass or a declaration with its reason is fine,
    /// any other failure is an issue, and a failure the backend expects by design is a known issue whose detail is
    /// printed (so the suite stays green while the matrix says failed).
    func judge() {
        let result = backend.evaluate(rule)
        if let reason = backend.expectedFailures[rule.id] {
            withKnownIssue("\(rule.id) · \(backend.name) fails by design: \(reason)", isIntermittent: true) {
                if case .failed(let detail) = result.outcome {
                    print("\(rule.id) · \(backend.name): failed, by design: \(detail)")
                    Issue.record("\(rule.id) · \(backend.name): \(detail)")
                }
            }
            if case .passed(let note) = result.outcome {
                print(
                    "\(rule.id) · \(backend.name): passed this time although it fails by design when the race hits\(note.isEmpty ? "" : " (\(note))")"
                )
            }
            return
        }
        switch result.outcome {
        case .passed:
            #expect(declaration == nil)
        case .failed:
            Issue.record(Comment(rawValue: result.failureMessage))
        case .declared(let reason):
            // A declaration is reported as such, never as a pass; it must say why.
            #expect(
                reason == declaration && !reason.isEmpty, "\(rule.id) · \(backend.name): declaration without a reason")
        case .notApplicable:
            Issue.record("\(rule.id) · \(backend.name): listed as a case but not applicable")
        }
    }

    /// Every pair except the not-applicable ones (those are listed by `ConformanceMatrixTests`).
    static func cases(_ backends: [ConformanceBackend]) -> [ConformanceCase] {
        backends.flatMap { backend in
            ConformanceRules.all.compactMap { rule in
                backend.outcomeWithoutRunning(rule) == .notApplicable
                    ? nil : ConformanceCase(rule: rule, backend: backend)
            }
        }
    }
}

/// Checks that `backend` declares only rules that apply to it (or would, but for the traits in `lacking`) and expects
/// to fail only rules that run, each with a reason.
func expectMeaningfulDeclarations(of backend: ConformanceBackend, lacking: SchedulerTraits = []) throws {
    for (id, reason) in backend.declarations {
        let rule = try #require(ConformanceRules.rule(id), "\(backend.name) declares unknown rule \(id)")
        #expect(
            rule.applies(to: backend.traits.union(lacking)),
            "\(backend.name) declares \(id), which does not apply to it anyway")
        #expect(!reason.isEmpty)
    }
    for (id, reason) in backend.expectedFailures {
        let rule = try #require(ConformanceRules.rule(id), "\(backend.name) expects unknown rule \(id) to fail")
        #expect(
            backend.outcomeWithoutRunning(rule) == nil, "\(backend.name) expects \(id) to fail, but it does not run")
        #expect(!reason.isEmpty)
    }
}

/// Whether this process runs under ThreadSanitizer (its runtime exports `__tsan_init`).
let threadSanitizerIsActive: Bool = dlsym(dlopen(nil, RTLD_NOW), "__tsan_init") != nil

/// The whole module runs one test at a time: the checks are stress and timing tests, and running them side by side
/// on two cores would only measure each other.
@Suite(.serialized) struct Conformance {}
