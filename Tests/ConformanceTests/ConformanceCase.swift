import SchedulerConformance
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

    /// Every pair except the not-applicable ones (those are listed by `ConformanceMatrixTests`).
    static func cases(_ backends: [ConformanceBackend]) -> [ConformanceCase] {
        backends.flatMap { backend in
            ConformanceRules.all.compactMap { rule in
                backend.outcomeWithoutRunning(rule) == .notApplicable ? nil : ConformanceCase(rule: rule, backend: backend)
            }
        }
    }
}

/// Whether this process runs under ThreadSanitizer (its runtime exports `__tsan_init`).
let threadSanitizerIsActive: Bool = dlsym(dlopen(nil, RTLD_NOW), "__tsan_init") != nil

/// The whole module runs one test at a time: the checks are stress and timing tests, and running them side by side
/// on two cores would only measure each other.
@Suite(.serialized) struct Conformance {}
