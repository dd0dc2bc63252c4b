// swift-tools-version: 6.1
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

/// Where Combine is not part of the system, OpenCombine stands in for it.
let nonApple: [Platform] = [.linux, .windows, .android, .wasi, .openbsd]

/// The peers are package traits, on by default: a package that depends on SchedulerKit and SchedulerConformance with
/// `traits: []` resolves none of swift-nio, OpenCombine and swift-clocks (`scripts/check-fixture.sh` checks it). A target that uses a
/// peer guards its code with `#if NIO` / `#if Combine` and its dependency with the same trait, since a package
/// dependency is left out only when every use of it is guarded.
let nio: TargetDependencyCondition? = .when(traits: ["NIO"])
let combine: TargetDependencyCondition? = .when(platforms: nonApple, traits: ["Combine"])
let swiftClocks: TargetDependencyCondition? = .when(traits: ["SwiftClocks"])

let package = Package(
    name: "SchedulerKit",
    products: [
        .library(name: "SchedulerKit", targets: ["SchedulerKit"]),
        .library(name: "SchedulerKitNIO", targets: ["SchedulerKitNIO"]),
        .library(name: "SchedulerKitCombine", targets: ["SchedulerKitCombine"]),
        .library(name: "SchedulerConformance", targets: ["SchedulerConformance"]),
        // Seeded interleavings for tests: an exploring scheduler, `explore` and `replay` (Docs/Exploring.md).
        .library(name: "SchedulerExplorer", targets: ["SchedulerExplorer"]),
        // The bench's runtime: what a package links to measure its own scheduler (workloads, lanes, the measuring
        // loop, BenchYourOwn, a run's folder). The tool that analyses runs (SchedulerBenchTool, `bench`) stays apart.
        .library(name: "SchedulerBench", targets: ["SchedulerBench"]),
        .executable(name: "bench", targets: ["bench"]),
    ],
    traits: [
        .trait(
            name: "NIO", description: "SwiftNIO's EventLoop and NIOThreadPool as schedulers, subjects and bench lanes"),
        .trait(name: "Combine", description: "Combine both ways (OpenCombine off Apple platforms), subjects and lanes"),
        .trait(
            name: "SwiftClocks", description: "Point-Free's swift-clocks (TestClock, ImmediateClock) as clock subjects"),
        .default(enabledTraits: ["NIO", "Combine", "SwiftClocks"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // Combine's open-source implementation, for Linux; on Apple platforms the Combine targets use Combine itself.
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
        // AsyncTimerSequence, the repeating timer the bench sets our repeating work beside (W20).
        .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.1.4"),
        // Point-Free's clocks, judged by the CL rules like the standard library's.
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
        // Test-only: `withMainSerialExecutor`, the tool the explorer is compared with (SchedulerExplorerTests).
        .package(url: "https://github.com/pointfreeco/swift-concurrency-extras", from: "1.4.3"),
        // API documentation of SchedulerKit and SchedulerConformance (`scripts/docs.sh`).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // One C11 thread-local pointer: the current scheduler in a load, where pthread_getspecific costs a call.
        .target(name: "CSchedulerKitThreadLocal"),
        // The Swift runtime's global-enqueue hook and its crash message, found by the linker (a static executable has no
        // symbols for dlsym).
        .target(name: "CSwiftRuntimeHooks"),
        .target(
            name: "SchedulerKit",
            dependencies: [
                "CSchedulerKitThreadLocal",
                "CSwiftRuntimeHooks",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "HeapModule", package: "swift-collections"),
            ],
            swiftSettings: strict
        ),
        // SwiftNIO's EventLoop and NIOThreadPool as schedulers: a target of its own, so SchedulerKit stays free of NIO.
        .target(
            name: "SchedulerKitNIO",
            dependencies: [
                "SchedulerKit",
                .product(name: "NIOCore", package: "swift-nio", condition: nio),
                .product(name: "NIOPosix", package: "swift-nio", condition: nio),
            ],
            swiftSettings: strict
        ),
        // Combine both ways: any Combine scheduler as a SchedulerKit scheduler (CombineSchedulerAdapter), and every
        // SchedulerKit timed scheduler as a Combine scheduler (CombineScheduler). A target of its own, like the NIO one.
        .target(
            name: "SchedulerKitCombine",
            dependencies: [
                "SchedulerKit",
                .product(name: "OpenCombine", package: "OpenCombine", condition: combine),
                .product(name: "OpenCombineDispatch", package: "OpenCombine", condition: combine),
                .product(
                    name: "OpenCombineFoundation", package: "OpenCombine", condition: combine),
            ],
            swiftSettings: strict
        ),
        // Seeded interleavings: a virtual-time scheduler that picks each job by a strategy, and the runner tests call.
        .target(
            name: "SchedulerExplorer",
            dependencies: [
                "SchedulerKit", "CSwiftRuntimeHooks", .product(name: "HeapModule", package: "swift-collections"),
            ],
            swiftSettings: strict),
        // What the conformance kit, the bench's runtime and its tool share, none of it their API: RFC 4180 CSV,
        // whole-file writes and folders written whole, resident memory, producer threads released together,
        // quantiles, child processes and what an interruption stops, number formats, the machine and this build.
        .target(name: "ToolSupport", dependencies: ["SchedulerKit", "CBenchSystem"], swiftSettings: strict),
        .target(
            name: "SchedulerConformance",
            dependencies: ["SchedulerKit", "SchedulerExplorer", "SchedulerKitCombine", "ToolSupport"],
            swiftSettings: strict),
        // The NIO adapters as conformance backends (for `swift test` and `bench conformance`), apart from the kit,
        // which stays free of NIO too.
        .target(
            name: "SchedulerConformanceNIO",
            dependencies: [
                "SchedulerConformance",
                "SchedulerKitNIO",
                .product(name: "NIOPosix", package: "swift-nio", condition: nio),
                .product(name: "NIOEmbedded", package: "swift-nio", condition: nio),
            ],
            swiftSettings: strict
        ),
        // Combine's schedulers (OpenCombine's on Linux) as conformance backends.
        .target(
            name: "SchedulerConformanceCombine",
            dependencies: ["SchedulerConformance", "SchedulerKitCombine"],
            swiftSettings: strict
        ),
        // swift-clocks' clocks as conformance subjects.
        .target(
            name: "SchedulerConformanceClocks",
            dependencies: [
                "SchedulerConformance", .product(name: "Clocks", package: "swift-clocks", condition: swiftClocks),
            ],
            swiftSettings: strict
        ),
        .target(name: "CJemalloc", linkerSettings: [.linkedLibrary("dl")]),
        // Linux calls the bench makes that Swift cannot reach directly: perf software counters, CPU affinity, renameat2.
        .target(name: "CBenchSystem"),
        // The bench's runtime: workloads, the runtime's own reference lanes, the measuring loop and a run's folder.
        // W18 runs a Combine pipeline through SchedulerKitCombine, which the kit links already.
        .target(
            name: "SchedulerBench",
            dependencies: [
                "SchedulerKit",
                "SchedulerExplorer",
                "SchedulerKitCombine",
                "SchedulerConformance",
                .product(name: "OpenCombine", package: "OpenCombine", condition: combine),
                "CJemalloc",
                "CBenchSystem",
                "ToolSupport",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
            ],
            swiftSettings: strict
        ),
        // The peers' reference lanes, apart from the runtime so that a package that benches its own scheduler links
        // none of their libraries: raw EventLoop.execute (NIO) and swift-clocks' TestClock. The tool registers them.
        .target(
            name: "SchedulerBenchPeers",
            dependencies: [
                "SchedulerBench",
                "SchedulerKit",
                "SchedulerConformance",
                "SchedulerConformanceClocks",
                .product(name: "NIOCore", package: "swift-nio", condition: nio),
                .product(name: "NIOPosix", package: "swift-nio", condition: nio),
            ],
            swiftSettings: strict
        ),
        // The tool beside the runtime: comparison, reports, history, exports, power, calibration, goals, and what
        // parses settings; `bench` is its command line. No product: a package that benches its own scheduler links
        // the runtime alone, and its build compiles none of these files (scripts/check-fixture.sh checks it).
        .target(
            name: "SchedulerBenchTool",
            dependencies: [
                "SchedulerBench",
                "SchedulerBenchPeers",
                "SchedulerKit",
                "SchedulerConformance",
                // The catalog names the peers' subjects: their targets compile nothing without the peer's trait.
                "SchedulerConformanceNIO",
                "SchedulerConformanceCombine",
                "SchedulerConformanceClocks",
                "ToolSupport",
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "bench",
            dependencies: [
                "SchedulerBench",
                "SchedulerBenchTool",
                "SchedulerConformance",
                "SchedulerConformanceNIO",
                "SchedulerConformanceCombine",
                "ToolSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Benchmarks/bench",
            swiftSettings: strict
        ),
        // The peers' races that ThreadSanitizer must not report from the test binary, each named and explained there.
        .target(name: "ThreadSanitizerSuppressions", path: "Tests/ThreadSanitizerSuppressions"),
        // What the test targets share (values tasks write, gates, polling with generous time-outs, scratch folders).
        .target(
            name: "TestSupport", dependencies: ["SchedulerKit", "ThreadSanitizerSuppressions"],
            path: "Tests/TestSupport", swiftSettings: strict),
        .testTarget(name: "SchedulerKitTests", dependencies: ["SchedulerKit", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "SchedulerExplorerTests",
            dependencies: [
                "SchedulerExplorer", "SchedulerKit", "SchedulerConformance", "CSwiftRuntimeHooks",
                .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
                .product(name: "Clocks", package: "swift-clocks", condition: swiftClocks),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "ConformanceTests",
            dependencies: [
                "SchedulerConformance", "SchedulerConformanceNIO", "SchedulerConformanceCombine",
                "SchedulerConformanceClocks", "SchedulerKit",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SchedulerBenchTests",
            dependencies: [
                "SchedulerBench", "SchedulerBenchPeers", "SchedulerBenchTool", "SchedulerKit", "SchedulerExplorer",
                "SchedulerConformance", "ToolSupport", "TestSupport",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SchedulerKitNIOTests",
            dependencies: [
                "SchedulerKitNIO",
                "SchedulerKit",
                "TestSupport",
                .product(name: "NIOCore", package: "swift-nio", condition: nio),
                .product(name: "NIOPosix", package: "swift-nio", condition: nio),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SchedulerKitCombineTests",
            dependencies: [
                "SchedulerKitCombine",
                "SchedulerKit",
                "TestSupport",
                .product(name: "OpenCombine", package: "OpenCombine", condition: combine),
            ],
            swiftSettings: strict
        ),
        // The documentation's Swift snippets, compiled: README.md's and Docs/'s, each found here by a test.
        .testTarget(
            name: "DocSnippetTests",
            dependencies: [
                "SchedulerKit", "SchedulerConformance", "SchedulerBench", "SchedulerKitCombine", "SchedulerExplorer",
                .product(name: "OpenCombine", package: "OpenCombine", condition: combine),
            ],
            path: "Tests/DocSnippets",
            swiftSettings: strict
        ),
        // The scheduler and tests of the package in Tests/Fixtures/BenchYourOwn, compiled here as well: a third party's
        // use of the kit and the bench, through public API only, checked by every `swift test`.
        .testTarget(
            name: "PublicAPITests",
            dependencies: ["SchedulerKit", "SchedulerBench", "SchedulerConformance", "SchedulerExplorer"],
            path: "Tests/Fixtures/BenchYourOwn",
            exclude: ["Package.swift", "Sources/your-bench"],
            sources: ["Sources/YourScheduler", "Tests/YourSchedulerTests"],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
