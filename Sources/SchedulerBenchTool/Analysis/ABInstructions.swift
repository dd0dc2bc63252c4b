import Foundation
import SchedulerBench
import SchedulerConformance
import ToolSupport

/// Instructions per task on the schedule and run paths of both builds of `bench ab`, counted by callgrind
/// (``InstructionCount``), and estimated cycles where one thread does all the work (``EstimatedCycles``), compared
/// as exact counts (``Metric/countTolerance(around:)``: 2 %).
///
/// Why beside the timed pairs: a count is the same on every run of a build, so a change that adds 3 % of work to a
/// scheduler's path is called on the first count, where the timed cells would need hundreds of pairs on a noisy
/// 2-core machine. It is not a time: a count says nothing of waits, cache misses or contention, which is why the timed
/// cells keep their own verdicts and the two are never merged.
package struct ABInstructions: Sendable {
    package struct Line: Sendable {
        package let backend: BackendID
        package let metric: Metric
        package let baseline: Double
        package let candidate: Double
        package let verdict: ABAnalysis.Verdict
    }

    package let lines: [Line]
    /// Why a backend or a build has no line.
    package let notes: [String]

    init(baseline: [InstructionCount], candidate: [InstructionCount], notes: [String]) {
        lines = candidate.flatMap { counted -> [Line] in
            guard let before = baseline.first(where: { $0.backend == counted.backend }) else { return [] }
            let paths: [(Metric, Double?, Double?)] = [
                (.instructionsToSchedule, before.schedule, counted.schedule),
                (.instructionsToRun, before.run, counted.run),
                (.estimatedCyclesToSchedule, before.scheduleCycles, counted.scheduleCycles),
                (.estimatedCyclesToRun, before.runCycles, counted.runCycles),
            ]
            return paths.compactMap { metric, a, b -> Line? in
                guard let a, let b else { return nil }
                return Line(
                    backend: counted.backend, metric: metric, baseline: a, candidate: b,
                    verdict: ABAnalysis.countVerdict([(a: a, b: b)], metric: metric))
            }
        }
        self.notes = notes
    }

    /// Counts both builds on every countable backend; a build that cannot count (valgrind missing, a baseline
    /// older than the probe) leaves a note instead of lines.
    static func measure(
        _ backends: [Backend], baseline: String, candidate: String, launcher: any ChildLauncher,
        log: (String) -> Void
    ) -> ABInstructions {
        var notes: [String] = []
        func count(_ executable: String, _ side: String) -> [InstructionCount] {
            do {
                let (counts, notLinear) = try InstructionCount.measure(
                    backends, launcher: launcher, executable: executable
                ) { log("\(side): \($0)") }
                notes += notLinear.map { "\($0.backend) (\(side)): \($0.reason)" }
                return counts
            } catch {
                notes.append("\(side): instructions not counted (\(error))")
                return []
            }
        }
        let a = count(baseline, "A")
        let b = a.isEmpty ? [] : count(candidate, "B")
        return ABInstructions(baseline: a, candidate: b, notes: notes)
    }

    /// `instructions.csv` (`Docs/Results.md`).
    package var csv: String {
        let header = ["backend", "metric", "unit", "a", "b", "ratio", "verdict"]
        return CSV.encode(
            [header]
                + lines.map {
                    [
                        $0.backend.rawValue, $0.metric.name, $0.metric.unit, Format.number($0.baseline),
                        Format.number($0.candidate), $0.baseline > 0 ? Format.number($0.candidate / $0.baseline) : "",
                        $0.verdict.rawValue,
                    ]
                })
    }

    /// The counts as a table, with the notes under it.
    package func render() -> String {
        var table = TextTable(["backend", "metric", "A", "B", "B/A", "verdict"])
        for line in lines {
            table.add([
                line.backend.rawValue, line.metric.name,
                Format.short(line.baseline), Format.short(line.candidate),
                line.baseline > 0 ? Format.short(line.candidate / line.baseline) + "x" : "-",
                line.verdict == .same ? "same" : "** \(line.verdict.rawValue)",
            ])
        }
        return ([lines.isEmpty ? "(no counts)" : table.render()] + notes.map { "note: \($0)" })
            .joined(separator: "\n")
    }
}
