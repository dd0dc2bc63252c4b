import Foundation
import SchedulerConformance
import Testing

@testable import SchedulerBench
@testable import SchedulerBenchTool

/// What documents say about the package is held to the package: the catalog page is what the catalog generates, and
/// the README's layout names every source folder there is.
@Suite struct DocsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    #if NIO && Combine
        @Test func theCatalogPageIsWhatTheCatalogSays() throws {
            let committed = try String(contentsOf: Self.root.appendingPathComponent(CatalogPage.path), encoding: .utf8)
            #expect(committed == CatalogPage.markdown(), "Docs/Catalog.md is stale: run `swift run bench catalog`")
        }
    #endif

    @Test func everyEntryIsOnThePageAndEveryReferenceToo() {
        let page = CatalogPage.markdown()
        for entry in Catalog.subjects { #expect(page.contains("| `\(entry.id)`")) }
        for reference in Catalog.references { #expect(page.contains("| `\(reference.id)` |")) }
    }

    @Test func theReadmeLayoutNamesEverySourceFolder() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let layout = readme.components(separatedBy: "## Layout").last ?? ""
        let sources = try FileManager.default.contentsOfDirectory(
            atPath: Self.root.appendingPathComponent("Sources").path)
        for folder in sources.sorted() {
            #expect(layout.contains(folder + "/"), "README's layout does not name Sources/\(folder)/")
        }
        for top in ["Benchmarks/bench/", "Tests/", "Docs/", "Results/", "scripts/"] {
            #expect(layout.contains(top), "README's layout does not name \(top)")
        }
        #expect(readme.split(separator: "\n", omittingEmptySubsequences: false).count <= 120)
    }

    static let isGitCheckout = FileManager.default.fileExists(atPath: root.appendingPathComponent(".git").path)

    /// What `Results/` tracks stays under 5 MB (the history a compressed file per run, an ab comparison's raw pairs
    /// left untracked: Results/README.md).
    @Test(.enabled(if: isGitCheckout)) func theTrackedResultsStayUnderFiveMegabytes() throws {
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        git.arguments = ["git", "-C", Self.root.path, "ls-files", "-z", "Results"]
        let output = Pipe()
        git.standardOutput = output
        try git.run()
        let listing = output.fileHandleForReading.readDataToEndOfFile()
        git.waitUntilExit()
        let files = String(decoding: listing, as: UTF8.self).split(separator: "\0").map(String.init)
        #expect(files.count > 20, "git listed the tracked results")
        let bytes = files.reduce(0) { total, file in
            let size =
                try? FileManager.default.attributesOfItem(atPath: Self.root.appendingPathComponent(file).path)[
                    .size] as? Int
            return total + (size ?? 0)
        }
        #expect(bytes <= 5_000_000, "Results/ tracks \(bytes) bytes; keep it under 5 MB (Results/README.md)")
    }
}

/// The bench's lanes follow from the catalog's entries; what an entry declares it does not keep, no workload relies on.
@Suite struct CatalogLaneTests {
    @Test func noWorkloadRecursesOnASubjectThatDeclaresItsStackGrows() {
        for entry in Catalog.subjects
        where BenchHarness.of(entry).measured
            && (entry.declarations[.r2] != nil || entry.expectedFailures[.r2] != nil)
        {
            #expect(Catalog.backend(entry.id)?.has(.flatRecursion) == false, "\(entry.id)")
        }
        #expect(Catalog.backend(.subscription)?.has(.flatRecursion) == false)
        #expect(Catalog.backend(.subscription)?.has(.asynchronous) == true)
    }
}
