import Foundation
import SchedulerBench
import SchedulerKit
import ToolSupport

/// `bench calibrate`: runs this build several times, exactly as asked (same workloads, scale, rounds and CPUs as the
/// runs it will judge), and stores how far each figure moved between those runs, with the machine's fingerprint
/// (``Calibration``). `bench compare` and `bench report` use it to tell a real difference from run-to-run noise.
package enum CalibrateSession {
    package static let runsRange = 3...20

    package static func perform(
        _ request: RunRequest, runs: Int, resultsRoot: String, launcher: any ChildLauncher,
        commandLine: String, log: (String) -> Void
    ) throws -> (URL, Calibration) {
        guard runsRange.contains(runs) else {
            throw BenchError.setting(
                "--runs must be between \(runsRange.lowerBound) and \(runsRange.upperBound), got \(runs)")
        }
        guard request.allocator != .both else {
            throw BenchError.setting("calibrate one allocator at a time: --allocator jemalloc or system")
        }
        try request.preflight()
        try RunStore(root: resultsRoot).preflight()
        let scratch = try ScratchFolder("calibrate")
        defer { scratch.remove() }
        let finished = Locked(0)
        Interruption.install { "after \(finished.withLock { $0 }) of \(runs) runs; no calibration was written" }
        let environment = Relaunch.childEnvironment(commandLine: commandLine)
        var loaded: [RunData] = []
        let started = Date()
        for index in 1...runs {
            var child = request
            child.outputDirectory = scratch.url.path
            child.runID = "calibration-\(index)"
            log("calibration run \(index) of \(runs) (\(Int(Date().timeIntervalSince(started))) s so far)")
            do {
                try ChildProcess.run(.run(child), launcher: launcher, environment: environment, captureError: true)
            } catch {
                throw BenchError.failed("calibration run \(index) failed (\(error)); no calibration was written")
            }
            loaded.append(try RunData.load(scratch.url.appendingPathComponent(child.runID!).path))
            finished.withLock { $0 = index }
        }
        let calibration = try Calibration(runs: loaded)
        guard let metadata = loaded.first?.metadata else {
            throw BenchError.failed("the calibration runs wrote no rows")
        }
        let file = Calibration.file(for: metadata, root: resultsRoot)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try AtomicFile.write(calibration.csv, to: file)
        return (file, calibration)
    }

    /// Rewrites a calibration file from the figures it keeps, with this build's method; returns the calibration.
    package static func recompute(_ path: String) throws -> Calibration {
        guard FileManager.default.fileExists(atPath: path) else {
            throw BenchError.input("\(path) does not exist; name a file under Results/calibration/")
        }
        let calibration = try Calibration(contentsOf: path)
        try AtomicFile.write(calibration.csv, to: URL(fileURLWithPath: path))
        return calibration
    }
}
