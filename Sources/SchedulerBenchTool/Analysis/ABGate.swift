import SchedulerBench
import ToolSupport

/// What makes `bench ab --fail-on` exit non-zero, so that CI can gate a change on a paired comparison: a cell whose
/// interval clears the margin on the slow side (``ABAnalysis``), or an exact count (``ABInstructions``) that grew.
package enum ABGate: String, CaseIterable, Sendable {
    /// Any cell, or exact count, that reads slower.
    case slower
    /// Also any cell the budget could not decide either way: the strict gate, for a quiet machine with time to spare
    /// (on a noisy one it fails where nothing changed).
    case slowerOrUndecided = "slower-or-undecided"

    private var trippedBy: Set<ABAnalysis.Verdict> { self == .slower ? [.slower] : [.slower, .undecided] }

    /// One line per cell that trips the gate ("W1 tasks=100000 cpu_ns_per_task threadpool [jemalloc]: slower, B/A
    /// 1.21x (1.15–1.27)"); empty when the comparison passes.
    package func trips(_ analysis: ABAnalysis, instructions: ABInstructions?) -> [String] {
        let cells = analysis.lines.filter { trippedBy.contains($0.verdict) }.map { line in
            "\(line.cell): \(line.verdict.rawValue), B/A \(Format.present(line.ratio))"
        }
        let counts = (instructions?.lines ?? []).filter { $0.verdict == .slower }.map { line in
            "\(line.backend) \(line.metric): slower, \(Format.short(line.baseline)) → \(Format.short(line.candidate))"
        }
        return cells + counts
    }
}
