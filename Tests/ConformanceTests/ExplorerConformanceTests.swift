import Foundation
import SchedulerConformance
import SchedulerExplorer
import Testing

/// One explorer rule on one explorer.
struct ExplorerCase: Sendable, CustomTestStringConvertible {
    let subject: ExplorerSubject
    let rule: ConformanceRule
    var testDescription: String { "\(rule.id) · \(subject.name)" }

    static let all: [ExplorerCase] = ExplorerSubject.builtIn.flatMap { subject in
        ExplorerRules.all.filter { $0.applies(to: subject.kind) }.map { ExplorerCase(subject: subject, rule: $0) }
    }
}

/// SchedulerExplorer's random strategy with one defect where a test meets it: in its replay, or in its trace.
struct ExplorerControl: Sendable, CustomTestStringConvertible {
    let subject: ExplorerSubject
    let mustFail: Set<RuleID>
    var testDescription: String { subject.name }

    static let all: [ExplorerControl] = [
        ExplorerControl(
            subject: planted("Control: replays the next seed") { explorer in
                ExplorerUnderTest(
                    strategyKind: .seeded, explore: explorer.explore,
                    replay: { schedule, settings, body in
                        guard case .seed(let seed) = schedule else {
                            return await explorer.replay(schedule, settings, body)
                        }
                        return await explorer.replay(.seed(seed &+ 1), settings, body)
                    })
            }, mustFail: [.ex1]),
        ExplorerControl(
            subject: planted("Control: a new task number at every job") { explorer in
                ExplorerUnderTest(
                    strategyKind: .seeded,
                    explore: { schedules, seed, settings, body in
                        renumbered(await explorer.explore(schedules, seed, settings, body))
                    },
                    replay: { schedule, settings, body in renumbered(await explorer.replay(schedule, settings, body)) })
            }, mustFail: [.ex2]),
    ]

    /// EX3 and EX4 read what an explorer does with tasks inside a schedule, which no wrapper of its two calls can
    /// change: their negative controls are bugs planted in SchedulerExplorer's source, in `Tests/Mutants` (each
    /// killed 20 of 20 by the rule, `Docs/Conformance.md`).
    static let plantedInTheSource: [RuleID: [String]] = [
        .ex3: [
            "99-virtual-pending-summary-earliest-takes-the-later-deadline",
            "101-explorer-drops-ready-jobs-once-body-returns",
        ],
        .ex4: ["103-explorer-capture-forgets-tasks-it-took"],
    ]

    static func planted(_ name: String, _ defect: @escaping @Sendable (ExplorerUnderTest) -> ExplorerUnderTest)
        -> ExplorerSubject
    {
        ExplorerSubject(name: name) { defect(.schedulerExplorer(.random)) }
    }

    /// Every step line's task renumbered by the line: what an explorer that forgets a task's number prints.
    static func renumbered(_ outcome: ExplorerUnderTest.Outcome) -> ExplorerUnderTest.Outcome {
        var outcome = outcome
        guard var failure = outcome.failure else { return outcome }
        failure.trace = failure.trace.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map {
            index, line in
            line.split(separator: " ", omittingEmptySubsequences: false).map { word in
                word.hasPrefix("t") && word.count > 1 && word.dropFirst().allSatisfy(\.isNumber)
                    ? "t\(index + 1)" : String(word)
            }.joined(separator: " ")
        }.joined(separator: "\n")
        outcome.failure = failure
        return outcome
    }

    static var cases: [(ExplorerControl, ConformanceRule)] {
        all.flatMap { control in ExplorerRules.all.map { (control, $0) } }
    }
}

extension Conformance {
    @Suite struct Explorers {
        @Test("SchedulerExplorer keeps the rule with each strategy", arguments: ExplorerCase.all)
        func rule(_ pair: ExplorerCase) async {
            let result = await pair.subject.evaluate(pair.rule)
            #expect(!result.outcome.isFailure, "\(result)")
        }

        @Test("A broken explorer fails exactly the rules it breaks", arguments: ExplorerControl.cases)
        func control(_ control: ExplorerControl, _ rule: ConformanceRule) async {
            await judgeControl(
                rule: rule.id, subject: control.subject.name, mustFail: control.mustFail.contains(rule.id)
            ) { await control.subject.evaluate(rule).outcome }
        }

        /// An explorer that never returns from `explore` or `replay`: each rule fails as not finished within its
        /// deadline, saying what the kit waited on (the kit's thread and the suspended task stay behind).
        @Test("An explorer that never answers fails every rule as not finished")
        func aHangIsAFailure() async {
            let silent = ExplorerSubject(name: "Control: never answers") {
                ExplorerUnderTest(
                    strategyKind: .seeded,
                    explore: { _, _, _, _ in await Self.never() },
                    replay: { _, _, _ in await Self.never() })
            }
            for rule in ExplorerRules.all {
                let result = await silent.judgeFromTask(rule, deadline: .seconds(2))
                #expect(result.outcome.isFailure && result.outcome.detail.contains("did not finish in"), "\(result)")
                #expect(result.outcome.detail.contains("inside"), "\(result): says nothing of what the kit waited on")
            }
        }

        static func never() async -> ExplorerUnderTest.Outcome {
            await withCheckedContinuation { (_: CheckedContinuation<ExplorerUnderTest.Outcome, Never>) in }
        }

        @Test("Every explorer rule has a negative control: a broken explorer, or a bug planted in its source")
        func coverage() throws {
            let planted = Set(ExplorerControl.all.flatMap(\.mustFail))
            let mutants = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../Mutants").standardized
            for rule in ExplorerRules.all {
                let inSource = ExplorerControl.plantedInTheSource[rule.id] ?? []
                #expect(planted.contains(rule.id) || !inSource.isEmpty, "\(rule.id) has no negative control")
                for name in inSource {
                    let path = mutants.appendingPathComponent("\(name).patch").path
                    #expect(FileManager.default.fileExists(atPath: path), "\(rule.id)'s control \(path) is missing")
                }
            }
        }
    }
}
