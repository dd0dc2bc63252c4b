import Foundation
import Testing

@testable import SchedulerBench
@testable import SchedulerBenchTool

/// REPORT.md, the one-page answer: each headline is held to the table under it, like is ranked only with like, and a
/// figure that depends on more than the scheduler (W17) is shown with what explains it, not ranked.
@Suite struct ReportPageTests {
    static let run = Fixtures.run([
        Fixtures.Cell(rounds: [
            .threadPool: steady(150), .dispatch: steady(340), .operationQueue: steady(3_000), .immediate: steady(15),
            .testScheduler: steady(95), .rawDispatch: steady(290), .rawOperationQueue: steady(3_100),
            .directCall: steady(11),
        ]),
        Fixtures.Cell(
            workload: .pingPong, metric: .nsPerRoundTrip,
            rounds: [.threadPool: wobbly(1_500), .dispatch: steady(1_600), .rawDispatch: steady(6_000)]),
        Fixtures.Cell(
            workload: .allocations, metric: .allocsPerTask,
            rounds: [.threadPool: [1], .dispatch: [2], .immediate: [0], .rawDispatch: [2]]),
        Fixtures.Cell(
            workload: .observeOnDrain, metric: .nsPerEvent,
            rounds: [.threadPool: steady(160), .combineRunLoop: steady(50), .immediate: steady(150)]),
        Fixtures.Cell(
            workload: .observeOnDrain, metric: .eventsPerDrain,
            rounds: [.threadPool: steady(12), .combineRunLoop: steady(400), .immediate: steady(1)]),
    ])
    static let view = RunView(run: run, allocator: .jemalloc)

    /// The first backend a headline names, and the first backend of the table under it.
    static func leaders(_ section: [String]) -> (headline: String?, table: String?) {
        func firstQuoted(_ line: String) -> String? {
            let parts = line.split(separator: "`", omittingEmptySubsequences: false)
            return parts.count > 2 ? String(parts[1]) : nil
        }
        let headline = section.first { $0.hasPrefix("Best") }.flatMap(firstQuoted)
        let firstRow = section.drop { !$0.hasPrefix("|---") }.dropFirst().first
        return (headline, firstRow.flatMap(firstQuoted))
    }

    @Test func everyHeadlineNamesTheFirstRowOfItsTable() {
        let sections = Report.sections(Self.view)
        #expect(sections.count == 3)  // W1, W4, W9: the sections with rows
        for section in sections {
            let (headline, table) = Self.leaders(section)
            #expect(headline != nil && headline == table, "\(section.first ?? "")")
        }
        let throughput = sections[0].joined(separator: "\n")
        #expect(throughput.contains("Best: `threadpool`, 2.27x ahead of `dispatch`."))
        #expect(throughput.contains("| `dispatch` | 340 | 2.27x | 1.17x `raw-dispatch` |"))
        // ±30 % rounds against a steady 1 600: the hop claims no winner.
        #expect(sections[1].contains("Best: `threadpool`, within noise of `dispatch`."))
    }

    @Test func inlineSchedulersAreNotRankedWithHandOffs() {
        let throughput = Report.sections(Self.view)[0]
        #expect(!throughput.contains { $0.hasPrefix("| `immediate`") || $0.hasPrefix("| `test`") })
        #expect(
            throughput.last
                == "Not ranked with hand-offs (they run the task on the caller's stack): `immediate` 15.0 ns, `test` 95.0 ns."
        )
        // The stored `vs best` column ranks like with like too.
        let dispatch = Self.run.summary.first { $0.backend == .dispatch && $0.workload == .throughput }
        let immediate = Self.run.summary.first { $0.backend == .immediate && $0.workload == .throughput }
        #expect(dispatch?.fastest == .threadPool)
        #expect(immediate?.fastest == .immediate)
    }

    @Test func drainedObserveOnIsShownWithItsBatchingNotRanked() {
        let table = Report.drainedTable(Self.view).joined(separator: "\n")
        #expect(table.contains("Not ranked on the page"))
        // The page points to it in a sentence; the table itself is in FIGURES.md.
        let page = Report.page(run: Self.run, folder: "run-1", charts: [])
        #expect(page.contains("Observe(on:), drained (W17), is not ranked"))
        #expect(Report.figuresMarkdown(run: Self.run, folder: "run-1").contains("| `threadpool` | 160 | 12.0 |"))
        #expect(table.contains("| `combine-runloop` | 50.0 | 400 | not recorded |"))
        #expect(table.contains("| `threadpool` | 160 | 12.0 | not recorded |"))
        #expect(!Report.peersTable(Self.view, conformance: []).contains { $0.contains("(W17)") && $0.hasPrefix("| ") })
    }

    @Test func thePageFitsOnAPageAndLinksEveryFigure() {
        let page = Report.page(run: Self.run, folder: "run-1", charts: [])
        #expect(page.split(separator: "\n", omittingEmptySubsequences: false).count <= 150)
        #expect(page.contains("[`FIGURES.md`](FIGURES.md)"))
        #expect(Report.figuresMarkdown(run: Self.run, folder: "run-1").contains("### W17 observe-on-drain"))
    }
}
