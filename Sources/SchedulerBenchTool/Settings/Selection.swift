import SchedulerBench
import SchedulerConformance
import ToolSupport

/// Turning the names a person types (`--backend threadpool,raw-dispatch`, `--workload W4,fan-out`) into identifiers,
/// with one-line errors that list the choices.
package enum Selection {
    /// Names given as repeated or comma-separated options; none means all (nil).
    package static func backends(_ names: [String]) throws -> [BackendID]? {
        try resolve(names) { name in
            guard let backend = Catalog.allBackends.first(where: { $0.id.rawValue == name }) else {
                throw BenchError.setting(
                    "unknown backend '\(name)'; choose from \(Catalog.allBackends.map(\.id.rawValue).joined(separator: ", ")) (see bench list)"
                )
            }
            return backend.id
        }
    }

    package static func workloads(_ names: [String]) throws -> [WorkloadID]? {
        try resolve(names) { name in
            guard let workload = Workload.named(name) else {
                let ids = "\(Workload.all.first!.id.rawValue)…\(Workload.all.last!.id.rawValue)"
                throw BenchError.setting(
                    "unknown workload '\(name)'; choose from \(ids) or "
                        + "\(Workload.all.map(\.name).joined(separator: ", ")) (see bench list)")
            }
            return workload.id
        }
    }

    package static func pairing(_ text: String) throws -> Pairing {
        guard let pairing = Pairing(rawValue: text) else {
            throw BenchError.setting(
                "unknown pairing '\(text)'; pass --pairing \(Pairing.allCases.map(\.rawValue).joined(separator: " or "))"
            )
        }
        return pairing
    }

    /// `bench ab --fail-on`: nil when not given.
    package static func gate(_ text: String?) throws -> ABGate? {
        guard let text else { return nil }
        guard let gate = ABGate(rawValue: text) else {
            throw BenchError.setting(
                "unknown --fail-on '\(text)'; pass --fail-on \(ABGate.allCases.map(\.rawValue).joined(separator: " or "))"
            )
        }
        return gate
    }

    package static func cpus(_ text: String?) throws -> CPUSet? {
        guard let text else { return nil }
        guard let cpus = CPUSet(parsing: text) else {
            throw BenchError.setting("--cpus \(text): expected CPU numbers like 0, 0,1 or 0-3")
        }
        return cpus
    }

    private static func resolve<ID>(_ names: [String], _ find: (String) throws -> ID) throws -> [ID]? {
        let split = names.flatMap { $0.split(separator: ",").map(String.init) }
        return split.isEmpty ? nil : try split.map(find)
    }
}
