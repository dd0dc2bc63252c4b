import Foundation
import SchedulerConformance
import TestSupport
import Testing
import ToolSupport

@testable import SchedulerBench
@testable import SchedulerBenchTool

/// Bad input is refused before anything runs, with one line that says what to do.
@Suite struct ValidationTests {
    static func message(_ body: () throws -> Void) -> String {
        do { try body() } catch { return "\(error)" }
        return "(no error)"
    }

    /// Typed, naming the setting as the library knows it; `bench` spells each as its flag (ExplainedFailure.swift).
    @Test func roundsOutOfRangeAreRefused() {
        #expect(throws: RequestError.outOfRange(.rounds, value: "9223372036854775807", allowed: "between 1 and 1000")) {
            try RunRequest(rounds: 9_223_372_036_854_775_807).policy()
        }
        #expect(
            Self.message { _ = try RunRequest(rounds: 0).policy() } == "rounds must be between 1 and 1000, got 0")
        #expect(
            RequestError.outOfRange(.rounds, value: "0", allowed: "between 1 and 1000").description(naming: {
                "--\($0)"
            })
                == "--rounds must be between 1 and 1000, got 0", "a command line names its flags")
        #expect(
            Self.message { _ = try RunRequest(extraSeconds: -1).policy() }.contains(
                "extraSeconds must be between 0 and 86400"))
        #expect(throws: RequestError.self) { try RunRequest(extraSeconds: .nan).policy() }
        #expect((try? RunRequest(rounds: 15).policy())?.rounds == 15)
        #expect(
            Self.message { _ = try RunRequest(roundMilliseconds: 0).policy() }
                == "roundMilliseconds must be between 1 and 10000, got 0")
        #expect((try? RunRequest(roundMilliseconds: 100).policy())?.minimumRoundSeconds == 0.1)
        #expect(
            (try? RunRequest(roundMilliseconds: 100).policy())?.description.hasPrefix("9 rounds of at least 100 ms")
                == true)
    }

    @Test func unknownNamesAreRefusedWithTheChoices() {
        #expect(
            Self.message { _ = try Selection.backends(["nope"]) }.contains(
                "unknown backend 'nope'; choose from dispatch"))
        #expect(Self.message { _ = try Selection.workloads(["W99"]) }.contains("unknown workload 'W99'"))
        // The choices come from the catalog, so a new workload is listed without editing the message.
        #expect(
            Self.message { _ = try Selection.workloads(["W99"]) }.contains("W1…\(Workload.all.last!.id.rawValue) or"))
        #expect((try? Selection.workloads(["w4,fan-out"])) == [.pingPong, .fanOut])
        #expect((try? Selection.backends([])) == .some(nil))
    }

    /// A failure says its kind, so a program can tell its own mistake from what the machine lacks or a file it gave.
    @Test func failuresSayTheirKind() {
        func kind(_ body: () throws -> Void) -> String {
            do { try body() } catch let error as BenchError {
                return switch error {
                case .setting: "setting"
                case .machine: "machine"
                case .input: "input"
                case .failed: "failed"
                }
            } catch { return "other: \(error)" }
            return "none"
        }
        #expect(kind { _ = try Selection.backends(["nope"]) } == "setting")
        #expect(kind { _ = try RunStore.summaryFile("/nonexistent-run-folder") } == "input")
        #expect(kind { _ = try BenchYourOwn.run([]) } == "setting")
    }

    @Test func cpuListsAreParsedAndChecked() throws {
        #expect(CPUSet(parsing: "0-3,8")?.cpus == [0, 1, 2, 3, 8])
        #expect(CPUSet(parsing: "0-3,8")?.description == "0-3,8")
        for bad in ["", "a", "3-1", "-1", "0,,1", "99999"] { #expect(CPUSet(parsing: bad) == nil, "\(bad)") }
        #expect(Self.message { _ = try Selection.cpus("x") }.contains("expected CPU numbers"))
        let allowed = try #require(Machine.allowedCPUs())
        let missing = CPUSet([allowed.cpus.last! + 1])
        #expect(
            Self.message { try RunRequest(cpus: missing).preflight() }.contains(
                "this process may run only on CPUs \(allowed)"))
    }

    @Test func aSelectionWithNothingToRunIsRefused() {
        #expect(throws: RequestError.nothingToRun) {
            try RunRequest(backends: [.defaultExecutor], workloads: [.throughput]).preflight()
        }
        #expect(throws: RequestError.unknown(.backend, value: "nope")) {
            try RunRequest(backends: [BackendID(rawValue: "nope")]).checkSettings()
        }
    }

    @Test func bothAllocatorsAreCheckedBeforeStarting() throws {
        // Without jemalloc installed, `--allocator both` fails before the first pass instead of after it.
        if Jemalloc.installedLibrary == nil {
            #expect(
                Self.message {
                    try RunRequest(allocator: .both, outputDirectory: try temporaryDirectory().path).preflight()
                }
                .contains("jemalloc is not installed"))
        } else {
            try RunRequest(scale: .smoke, allocator: .both, outputDirectory: try temporaryDirectory().path).preflight()
        }
    }

    @Test func abAndCalibrateRefuseOutOfRangeSettings() throws {
        var request = ABRequest(baseline: "HEAD").comparison
        request.minimumEffect = 1.5
        #expect(Self.message { try request.preflight() }.contains("--min-effect must be between 0 and 1"))
        request.minimumEffect = 0.05
        request.budgetSeconds = 0
        #expect(Self.message { try request.preflight() }.contains("--budget must be between 1 and 86400"))
        request.budgetSeconds = 60
        request.minimumPairs = 1
        #expect(Self.message { try request.preflight() }.contains("--pairs must be between 2 and 1000"))
        request.minimumPairs = 12
        request.workloads = [.startLatency]  // W5 reports latencies only: nothing a duet could judge
        #expect(Self.message { try request.preflight() }.contains("or pass --pairing sequential"))
        #expect(Self.message { _ = try Selection.pairing("together") }.contains("pass --pairing duet or sequential"))
        Catalog.registerBackends()  // the catalog's `threadpool`, whichever test runs first
        var power = PowerRequest()
        power.backends = [.threadPool]
        power.planted = [.immediate]
        #expect(Self.message { try power.preflight() }.contains("--plant immediate: not among the backends measured"))
        #expect(
            Self.message {
                _ = try CalibrateSession.perform(
                    RunRequest(), runs: 1, resultsRoot: "x", launcher: NoLauncher(), commandLine: ""
                ) { _ in }
            }.contains("--runs must be between 3 and 20"))
    }

    /// The contest is a paired comparison like `bench ab`'s: the same settings are refused with the same words.
    @Test func theContestRefusesWhatAbRefuses() {
        var contest = GlobalExecutorContestRequest()
        contest.comparison.minimumEffect = 1.5
        #expect(Self.message { try contest.preflight() }.contains("--min-effect must be between 0 and 1"))
        contest.comparison.minimumEffect = 0.02
        contest.comparison.minimumPairs = 1
        #expect(Self.message { try contest.preflight() }.contains("--pairs must be between 2 and 1000"))
        contest.comparison.minimumPairs = 12
        contest.challengers = [contest.champion]
        #expect(Self.message { try contest.preflight() }.contains("--challengers must name global executors other"))
    }
}

/// A launcher for paths that never start a child.
struct NoLauncher: ChildLauncher {
    func arguments(for job: ChildJob) -> [String] { [] }
}
