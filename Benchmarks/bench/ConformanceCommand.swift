import ArgumentParser

/// `bench conformance`: runs the conformance kit outside the test runner and writes its reports.
/// Owned by the conformance kit; this is a stub until it lands.
struct ConformanceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conformance",
        abstract: "Run every conformance rule on every backend; write Results/conformance.csv and Results/CONFORMANCE.md."
    )

    func run() throws {
        print("conformance: not implemented yet")
    }
}
