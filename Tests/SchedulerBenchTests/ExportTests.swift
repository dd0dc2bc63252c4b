import Foundation
import Testing

@testable import SchedulerBench
@testable import SchedulerBenchTool

/// `bench export` against each format's documented shape: Bencher's BMF JSON schema, github-action-benchmark's custom
/// tools, JMH's result list.
@Suite struct ExportTests {
    /// A measured cell (two backends), an exact count and a higher-is-better figure.
    static let run = Fixtures.run([
        Fixtures.Cell(rounds: [
            .threadPool: [100, 104, 98, 101, 99, 103, 97, 102, 100],
            .rawDispatch: [200, 210, 190, 205, 195, 201, 199, 207, 193],
        ]),
        Fixtures.Cell(
            workload: .allocations, parameters: Parameters([.queued: 1_000]), metric: .allocsPerTask,
            rounds: [.threadPool: [1]]),
        Fixtures.Cell(
            metric: .eventsPerSecond, rounds: [.threadPool: [5e6, 5.1e6, 4.9e6, 5e6, 5e6, 5e6, 5e6, 5e6, 5e6]]),
    ])

    /// The committed reference run (the newest complete full run under Results/).
    static func referenceRun() throws -> RunData {
        let results = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Results").path
        return try RunData.load(try Report.choose(runFolder: nil, resultsDirectory: results).folder)
    }

    static func json(_ format: ExportFormat, of run: RunData = run) throws -> Any {
        let (text, _) = try format.render(run)
        return try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    @Test func bmfIsBenchmarksOfMeasuresOfValuesWithTheirInterval() throws {
        try Self.checkBMF(Self.run)
    }

    @Test func theReferenceRunExportsInEveryFormatsShape() throws {
        let reference = try Self.referenceRun()
        try Self.checkBMF(reference)
        try Self.checkGitHubActionBenchmark(reference)
        try Self.checkJMH(reference)
    }

    static func checkBMF(_ run: RunData) throws {
        let benchmarks = try #require(try Self.json(.bmf, of: run) as? [String: Any])
        var measures = 0
        for (name, value) in benchmarks {
            #expect(!name.isEmpty && name.count <= 1024)
            let byMeasure = try #require(value as? [String: Any], "\(name)")
            for (measure, metric) in byMeasure {
                measures += 1
                #expect(measure.range(of: "^[a-z0-9-]{1,64}$", options: .regularExpression) != nil, "\(measure)")
                let fields = try #require(metric as? [String: Double], "\(name) \(measure)")
                #expect(Set(fields.keys).isSubset(of: ["value", "lower_value", "upper_value"]))
                let value = try #require(fields["value"])
                if Metric.all.contains(where: { $0.isExactCount && BencherMetricFormat.slug($0.name) == measure }) {
                    #expect(fields.count == 1, "an exact count has no interval")
                } else {
                    let (low, high) = (try #require(fields["lower_value"]), try #require(fields["upper_value"]))
                    #expect(low <= value && value <= high)
                }
            }
        }
        #expect(measures == run.summary.count)
    }

    @Test func githubActionBenchmarkWritesOneDirectionPerFile() throws {
        try Self.checkGitHubActionBenchmark(Self.run)
    }

    static func checkGitHubActionBenchmark(_ run: RunData) throws {
        var names: Set<String> = []
        var entries = 0
        let metrics = Dictionary(
            run.summary.map { ("\(ExportedCell(row: $0, rounds: []).benchmark) · \($0.metric.name)", $0.metric) }
        ) { first, _ in first }
        for format in [ExportFormat.githubActionBenchmark, .githubActionBenchmarkBigger] {
            let list = try #require(try Self.json(format, of: run) as? [[String: Any]])
            for entry in list {
                let name = try #require(entry["name"] as? String)
                #expect(entry["unit"] is String && entry["value"] is Double && entry["extra"] is String)
                #expect(entry["range"] == nil || entry["range"] is String)
                #expect(names.insert(name).inserted, "\(name) twice")
                let metric = try #require(metrics[name])
                #expect(metric.lowerIsBetter == (format == .githubActionBenchmark))
            }
            entries += list.count
        }
        #expect(entries == run.summary.count)
    }

    @Test func jmhResultsCarryScoreIntervalAndRounds() throws {
        try Self.checkJMH(Self.run)
        let results = try #require(try Self.json(.jmh) as? [[String: Any]])
        let pool = try #require(
            results.first {
                ($0["params"] as? [String: String])?["backend"] == "threadpool"
                    && ($0["benchmark"] as? String)?.hasSuffix("ns_per_task") == true
            })
        #expect(
            (pool["primaryMetric"] as? [String: Any])?["rawData"] as? [[Double]] == [
                [100, 104, 98, 101, 99, 103, 97, 102, 100]
            ])
        #expect(pool["mode"] as? String == "avgt")
    }

    static func checkJMH(_ run: RunData) throws {
        let results = try #require(try Self.json(.jmh, of: run) as? [[String: Any]])
        #expect(results.count == run.summary.count)
        for result in results {
            let benchmark = try #require(result["benchmark"] as? String)
            #expect(benchmark.range(of: #"^SchedulerBench\.\w+\.\w+$"#, options: .regularExpression) != nil)
            #expect(["avgt", "thrpt"].contains(result["mode"] as? String))
            #expect(result["params"] is [String: String])
            let metric = try #require(result["primaryMetric"] as? [String: Any])
            let score = try #require(metric["score"] as? Double)
            let confidence = try #require(metric["scoreConfidence"] as? [Double])
            #expect(confidence.count == 2 && confidence[0] <= score && score <= confidence[1])
            #expect(metric["scoreError"] is Double && metric["scoreUnit"] is String)
            #expect(
                Set((metric["scorePercentiles"] as? [String: Double])?.keys ?? [:].keys) == ["0.0", "50.0", "100.0"])
            let rounds = try #require(metric["rawData"] as? [[Double]])
            #expect(rounds.count == 1 && rounds[0].count == result["measurementIterations"] as? Int)
        }
    }

    @Test func anExportIsTheSameByteForByte() throws {
        for format in ExportFormat.allCases {
            #expect(try format.render(Self.run).json == format.render(Self.run).json)
        }
    }
}
