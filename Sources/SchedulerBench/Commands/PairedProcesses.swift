import Foundation
import ToolSupport

/// One side of a paired comparison: a `bench` binary and the environment its processes start with.
struct ProcessSide: Sendable {
    let name: String
    let executable: String
    let environment: [String: String]
}

/// Each process's summary rows, for one pair of processes.
public typealias ProcessPair = (baseline: [SummaryRow], candidate: [SummaryRow])

/// Pairs of `bench run` processes, one of each side, run back to back in alternating order (A B, B A, …): what
/// `bench ab` and `bench power` measure with.
enum PairedProcesses {
    /// Runs pairs until `afterPair`, handed the pairs so far and the seconds they took, says they decide (returns
    /// false) after `minimumPairs`, or until another pair would pass the budget.
    static func run(
        _ template: RunRequest, a: ProcessSide, b: ProcessSide, launcher: any ChildLauncher,
        minimumPairs: Int, maximumPairs: Int, budgetSeconds: Double,
        afterPair: ([ProcessPair], Double) -> Bool
    ) throws -> [ProcessPair] {
        let scratch = try ScratchFolder("pairs")
        defer { scratch.remove() }
        var pairs: [ProcessPair] = []
        let started = Date()
        while pairs.count < maximumPairs {
            let index = pairs.count
            var rows: [String: [SummaryRow]] = [:]
            for side in index.isMultiple(of: 2) ? [a, b] : [b, a] {
                let folder = scratch.url.appendingPathComponent("\(index)-\(side.name)")
                var child = template
                child.outputDirectory = folder.path
                child.runID = "run"
                do {
                    try ChildProcess.run(
                        .run(child), launcher: launcher, executable: side.executable, environment: side.environment,
                        captureError: true)
                } catch {
                    throw BenchError("\(side.name)'s bench run failed (\(error))")
                }
                rows[side.name] = try SummaryRow.read(folder.appendingPathComponent("run/summary.csv").path)
            }
            pairs.append((rows[a.name]!, rows[b.name]!))
            let elapsed = Date().timeIntervalSince(started)
            let wantsMore = afterPair(pairs, elapsed)
            if pairs.count < minimumPairs { continue }
            if !wantsMore || elapsed + elapsed / Double(pairs.count) > budgetSeconds { break }
        }
        return pairs
    }
}
