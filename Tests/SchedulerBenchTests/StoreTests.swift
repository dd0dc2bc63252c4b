import Dispatch
import Foundation
import SchedulerKit
import TestSupport
import Testing
import ToolSupport

@testable import SchedulerBench
@testable import SchedulerBenchTool

/// The results store: a run folder appears whole or not at all, never under another run's name.
@Suite struct StoreTests {
    @Test func runsStartedInTheSameSecondGetFoldersOfTheirOwn() throws {
        let root = try temporaryDirectory()
        let store = RunStore(root: root.path)
        let second = Date()
        let failures = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 25) { _ in
            do {
                try store.write(runID: RunID.make(date: second, commit: "abc1234"), files: ["summary.csv": "x\r\n"])
            } catch {
                failures.withLock { $0 += 1 }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: root.path)
        #expect(names.count == 25 && !names.contains { $0.hasPrefix(".") })
        #expect(store.runs().count == 25)
    }

    @Test func anExistingRunIsNeverOverwritten() throws {
        let root = try temporaryDirectory()
        let store = RunStore(root: root.path)
        try store.write(runID: "run-1", files: ["summary.csv": "first"])
        #expect(throws: RunStore.Failure.self) { try store.write(runID: "run-1", files: ["summary.csv": "second"]) }
        #expect(try String(contentsOf: root.appendingPathComponent("run-1/summary.csv"), encoding: .utf8) == "first")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["run-1"])
    }

    @Test func aFailedWriteLeavesNothingBehind() throws {
        let root = try temporaryDirectory()
        #expect(throws: (any Error).self) {
            try RunStore(root: root.path).write(runID: "run-1", files: ["no/such/folder.csv": "x"])
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).isEmpty)
    }

    @Test func aReadOnlyResultsFolderIsRefusedBeforeAnythingRuns() throws {
        // /proc takes no new files, not even from root (who ignores permission bits).
        #expect { try RunStore(root: "/proc").preflight() } throws: { "\($0)".contains("/proc is not writable") }
        #expect { try RunStore(root: "/proc/bench-results").preflight() } throws: {
            "\($0)".contains("cannot create /proc/bench-results")
        }
        let file = try temporaryDirectory().appendingPathComponent("results")
        try Data().write(to: file)
        #expect { try RunStore(root: file.path).preflight() } throws: { "\($0)".contains("is a file, not a folder") }
        #expect { try RunRequest(outputDirectory: "/proc").preflight() } throws: { "\($0)".contains("not writable") }
    }

    @Test func aRunFolderOrItsSummaryNamesTheSameRun() throws {
        let root = try temporaryDirectory()
        let folder = try RunStore(root: root.path).write(runID: "run-1", files: ["summary.csv": "x"])
        #expect(try RunStore.summaryFile(folder.path) == folder.appendingPathComponent("summary.csv").path)
        #expect(
            try RunStore.summaryFile(folder.appendingPathComponent("summary.csv").path).hasSuffix("run-1/summary.csv"))
        #expect { try RunStore.summaryFile(root.appendingPathComponent("nope").path) } throws: {
            "\($0)".contains("does not exist; name a run folder")
        }
    }

    /// A run stopped with SIGINT writes nothing, says so in one line and exits with 130.
    @Test func anInterruptedRunWritesNothingAndSaysSo() throws {
        let bench = try #require(BenchBinary.path, "the bench executable is built beside the tests (swift build)")
        let root = try temporaryDirectory()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: bench)
        process.arguments = [
            "run", "--quick", "--rounds", "1000", "--backend", "threadpool", "--workload", "W1",
            "--allocator", "system", "--output", root.path,
        ]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        var text = ""
        let deadline = Date().addingTimeInterval(60)
        while !text.contains("W1 throughput") && Date() < deadline && process.isRunning {
            text += String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self)
        }
        #expect(text.contains("W1 throughput"), "the run never started measuring: \(text)")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        text += String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 130)
        #expect(text.contains("interrupted (SIGINT) after"))
        #expect(text.contains("nothing was written, the run is discarded"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).isEmpty)
    }
}

/// The `bench` executable of this build: SwiftPM builds it into the folder that holds the test bundle.
enum BenchBinary {
    static let path: String? = {
        guard let runner = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            return nil
        }
        var folder = URL(fileURLWithPath: runner).deletingLastPathComponent()
        // The test runner may sit inside the .xctest bundle's folder.
        for _ in 0..<3 {
            let candidate = folder.appendingPathComponent("bench").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }()
}
