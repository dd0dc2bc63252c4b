import Foundation
import SchedulerConformance
import SchedulerKit
import Testing

/// Every Swift snippet of README.md and Docs/ is compiled: its lines appear, in order and together, in one of this
/// target's files (leading and trailing spaces, blank lines and `import` lines aside), and this target builds.
@Suite struct DocSnippetsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The code lines of a snippet or a source file, as compared.
    static func codeLines(_ text: some StringProtocol) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("import ") }
    }

    /// Each ```swift block of a Markdown page, with the line it starts on.
    static func swiftBlocks(of page: String) -> [(line: Int, code: String)] {
        var blocks: [(Int, String)] = []
        var current: (Int, [Substring])?
        for (index, line) in page.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if var open = current {
                if line.trimmingCharacters(in: .whitespaces) == "```" {
                    blocks.append((open.0, open.1.joined(separator: "\n")))
                    current = nil
                } else {
                    open.1.append(line)
                    current = open
                }
            } else if line.trimmingCharacters(in: .whitespaces) == "```swift" {
                current = (index + 1, [])
            }
        }
        return blocks
    }

    static var pages: [String] {
        let docs =
            (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Docs").path)) ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "Docs/" + $0 }
    }

    @Test func everySwiftSnippetIsCompiledHere() throws {
        let folder = Self.root.appendingPathComponent("Tests/DocSnippets")
        let sources = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
            .map { try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }
            .map(Self.codeLines)
        var checked = 0
        for page in Self.pages {
            let text = try String(contentsOf: Self.root.appendingPathComponent(page), encoding: .utf8)
            for (line, code) in Self.swiftBlocks(of: text) {
                let snippet = Self.codeLines(code)
                guard !snippet.isEmpty else { continue }
                checked += 1
                let found = sources.contains { source in
                    source.count >= snippet.count
                        && (0...(source.count - snippet.count)).contains {
                            Array(source[$0..<($0 + snippet.count)]) == snippet
                        }
                }
                #expect(
                    found, "\(page):\(line): this Swift snippet is not in Tests/DocSnippets, so nothing compiles it")
            }
        }
        #expect(checked >= 12, "only \(checked) snippets found: did the pages move?")
    }

    /// The guide's adapters are worked examples of correct adapters: each keeps the rules it is about.
    @Test(arguments: [
        (RuleID.s2, "queue"), (.c1, "queue"), (.c5, "queue"), (.k1, "queue"), (.l5, "queue"),
        (.v2, "virtual"), (.v4, "virtual"), (.v5, "virtual"), (.t2, "virtual"), (.t3, "virtual"),
        (.c1, "virtual"),
    ])
    func theGuidesAdaptersKeepTheRules(_ ruleID: RuleID, _ adapter: String) throws {
        let backend =
            adapter == "queue"
            ? ConformanceBackend(name: "PeerQueueAdapter") { PeerQueueAdapter(name: "peer") }
            : ConformanceBackend(name: "PeerVirtualTimeAdapter", pendingWorkOnRelease: .dropped) {
                PeerVirtualTimeAdapter()
            }
        let rule = try #require(ConformanceRules.rule(ruleID))
        let result = backend.evaluate(rule)
        #expect(result.outcome.label == "passed", "\(result)")
    }
}
