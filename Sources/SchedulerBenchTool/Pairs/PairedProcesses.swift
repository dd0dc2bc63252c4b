import Foundation
import SchedulerBench
import SchedulerKit
import ToolSupport

/// One side of a paired comparison: a `bench` binary and the environment its processes start with.
struct ProcessSide: Sendable {
    let name: String
    let executable: String
    let environment: [String: String]
}

/// Each process's summary rows, for one pair of processes.
package typealias ProcessPair = (baseline: [SummaryRow], candidate: [SummaryRow])

/// How the two processes of a pair share the machine (`Docs/Statistics.md`, "The duet").
///
/// On this kind of VM a process's figures sit in one of two levels, 1.6x apart, for stretches of seconds, and which
/// level a process gets is set by the host, per virtual CPU: two processes run one after the other share it only half
/// the time, two processes on different CPUs hardly ever. Two processes on the *same* CPU at the *same* time share it
/// always, so the duet runs A and B together, both pinned to one CPU, and judges the CPU time each spends per unit of
/// work (wall-clock time would measure how the kernel splits the CPU between them, not the builds).
package enum Pairing: String, Sendable, CaseIterable {
    /// A and B at once on one CPU (taking turns between CPUs and in which starts first, pair by pair); only the
    /// CPU-time metrics are judged.
    case duet
    /// A then B, B then A, …, each with the whole machine; every metric is judged.
    case sequential

    /// How the pairs run, in a sentence for logs and pages.
    package var summary: String {
        switch self {
        case .duet:
            "each pair is a duet: A and B at once, pinned to one CPU (the CPU and who starts first alternate), "
                + "judged on CPU time"
        case .sequential: "pairs alternate A B / B A, each process with the whole machine"
        }
    }

    /// Whether a metric's figures of a pair mean what they do alone: in a duet only CPU time does.
    package func judges(_ metric: Metric) -> Bool {
        self == .sequential || metric.isCPUTime || metric.isExactCount
    }
}

/// Pairs of `bench run` processes, one of each side: what `bench ab` and `bench power` measure with.
enum PairedProcesses {
    /// Runs pairs until `afterPair`, handed the pairs so far and the seconds they took, says they decide (returns
    /// false) after `minimumPairs`, or until another pair would pass the budget.
    static func run(
        _ template: RunRequest, a: ProcessSide, b: ProcessSide, pairing: Pairing, launcher: any ChildLauncher,
        minimumPairs: Int, maximumPairs: Int, budgetSeconds: Double,
        afterPair: ([ProcessPair], Double) -> Bool
    ) throws -> [ProcessPair] {
        let scratch = try ScratchFolder("pairs")
        defer { scratch.remove() }
        let cpus = Machine.allowedCPUs()?.cpus ?? [0]
        var pairs: [ProcessPair] = []
        let started = Date()
        while pairs.count < maximumPairs {
            let index = pairs.count
            // Which side starts first alternates, so that neither build always has the head start (or the wait).
            let order = index.isMultiple(of: 2) ? [a, b] : [b, a]
            var children: [(side: ProcessSide, request: RunRequest, folder: URL)] = order.map { side in
                let folder = scratch.url.appendingPathComponent("\(index)-\(side.name)")
                var child = template
                child.outputDirectory = folder.path
                child.runID = "run"
                return (side, child, folder)
            }
            switch pairing {
            case .sequential:
                for child in children { try runChild(child.request, child.side, launcher) }
            case .duet:
                // Both on one CPU, the CPU turning over pair by pair (pairs 0 and 1 on the first, 2 and 3 on the
                // next, …) so that every CPU sees both orders.
                let cpu = CPUSet([cpus[(index / 2) % cpus.count]])
                for position in children.indices { children[position].request.cpus = cpu }
                let failures = Locked<[any Error]>([])
                let duet = children
                DispatchQueue.concurrentPerform(iterations: duet.count) { position in
                    do { try runChild(duet[position].request, duet[position].side, launcher) } catch {
                        failures.withLock { $0.append(error) }
                    }
                }
                if let failure = failures.withLock({ $0.first }) { throw failure }
            }
            var rows: [String: [SummaryRow]] = [:]
            for child in children {
                rows[child.side.name] = try SummaryRow.read(child.folder.appendingPathComponent("run/summary.csv").path)
            }
            pairs.append((rows[a.name]!, rows[b.name]!))
            let elapsed = Date().timeIntervalSince(started)
            let wantsMore = afterPair(pairs, elapsed)
            if pairs.count < minimumPairs { continue }
            if !wantsMore || elapsed + elapsed / Double(pairs.count) > budgetSeconds { break }
        }
        return pairs
    }

    private static func runChild(_ request: RunRequest, _ side: ProcessSide, _ launcher: any ChildLauncher) throws {
        do {
            try ChildProcess.run(
                .run(request), launcher: launcher, executable: side.executable, environment: side.environment,
                captureError: true)
        } catch {
            throw BenchError.failed("\(side.name)'s bench run failed (\(error))")
        }
    }
}
