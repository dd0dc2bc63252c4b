import Foundation
import SchedulerBench
import SchedulerConformance
import Testing

@testable import SchedulerBenchTool

/// The runtime a package links (`SchedulerBench`) is held to its files: it imports none of the tool's code (reports,
/// history, exports, power, calibration, comparisons, goals), so a package that benches its own scheduler compiles
/// none of it. The compiler enforces it through the targets' dependencies; this holds the dependencies themselves.
@Suite struct RuntimeBoundaryTests {
    static let root = DocsTests.root

    @Test func theRuntimeTargetDependsOnNothingOfTheTool() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        // The target, not the product of the same name: its name is followed by its dependencies.
        let start = try #require(
            manifest.range(of: #"name: "SchedulerBench",\s*dependencies:"#, options: .regularExpression))
        let end = try #require(manifest[start.upperBound...].range(of: "swiftSettings:"))
        let target = manifest[start.upperBound..<end.lowerBound]
        #expect(!target.contains("SchedulerBenchTool"), "SchedulerBench must not depend on SchedulerBenchTool")
    }

    @Test func noFileOfTheRuntimeImportsTheTool() throws {
        let runtime = Self.root.appendingPathComponent("Sources/SchedulerBench")
        let files = try #require(FileManager.default.enumerator(atPath: runtime.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(files.count > 40, "the runtime's files were found")
        for file in files {
            let text = try String(contentsOf: runtime.appendingPathComponent(file), encoding: .utf8)
            #expect(!text.contains("import SchedulerBenchTool"), "\(file) imports the tool")
        }
    }

    @Test func theToolsPartsLiveInTheTool() throws {
        let tool = Self.root.appendingPathComponent("Sources/SchedulerBenchTool").path
        let runtime = Self.root.appendingPathComponent("Sources/SchedulerBench").path
        let toolFolders = try FileManager.default.contentsOfDirectory(atPath: tool)
        let runtimeFolders = try FileManager.default.contentsOfDirectory(atPath: runtime)
        for folder in ["Analysis", "Catalog", "Children", "Export", "Goals", "History", "Report"] {
            #expect(toolFolders.contains(folder), "Sources/SchedulerBenchTool/\(folder)")
            #expect(!runtimeFolders.contains(folder), "Sources/SchedulerBench/\(folder) belongs to the tool")
        }
    }

    /// The runtime measures what a program registers beside its references: none of the project's own schedulers is
    /// built into it, and the child processes `bench` starts are the tool's.
    @Test func theRuntimeCarriesNoSchedulerOfTheCatalog() throws {
        let subjects = Set(Catalog.subjects.map(\.id))
        #expect(Backend.references.allSatisfy { $0.isReference })
        #expect(Backend.references.allSatisfy { !subjects.contains($0.id) })
        let runtime = Self.root.appendingPathComponent("Sources/SchedulerBench")
        let files = try #require(FileManager.default.enumerator(atPath: runtime.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        for file in files {
            let text = try String(contentsOf: runtime.appendingPathComponent(file), encoding: .utf8)
            for word in ["Catalog.", "ConformanceBackend.builtIn", "ChildLauncher", "ChildJob"] {
                #expect(!text.contains(word), "\(file) names \(word)")
            }
        }
    }
}
