// swift-tools-version: 6.0
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "SchedulerKit",
    products: [
        .library(name: "SchedulerKit", targets: ["SchedulerKit"]),
        .library(name: "SchedulerKitNIO", targets: ["SchedulerKitNIO"]),
        .library(name: "SchedulerConformance", targets: ["SchedulerConformance"]),
        .library(name: "SchedulerBench", targets: ["SchedulerBench"]),
        .executable(name: "bench", targets: ["bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .target(
            name: "SchedulerKit",
            dependencies: [
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
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        // What the conformance kit and the bench both need: RFC 4180 CSV, whole-file writes, resident memory,
        // producer threads released together, quantiles. No dependencies.
        .target(name: "ToolSupport", swiftSettings: strict),
        .target(name: "SchedulerConformance", dependencies: ["SchedulerKit", "ToolSupport"], swiftSettings: strict),
        // The NIO adapters as conformance backends (for `swift test` and `bench conformance`), apart from the kit,
        // which stays free of NIO too.
        .target(
            name: "SchedulerConformanceNIO",
            dependencies: [
                "SchedulerConformance",
                "SchedulerKitNIO",
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .target(name: "CJemalloc", linkerSettings: [.linkedLibrary("dl")]),
        // Linux calls the bench makes that Swift cannot reach directly: perf software counters, CPU affinity, renameat2.
        .target(name: "CBenchSystem"),
        .target(
            name: "SchedulerBench",
            dependencies: [
                "SchedulerKit",
                "SchedulerKitNIO",
                "CJemalloc",
                "CBenchSystem",
                "ToolSupport",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "bench",
            dependencies: [
                "SchedulerBench",
                "SchedulerConformance",
                "SchedulerConformanceNIO",
                "ToolSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Benchmarks/bench",
            swiftSettings: strict
        ),
        // What the test targets share (values tasks write, gates, polling with generous time-outs, scratch folders).
        .target(name: "TestSupport", dependencies: ["SchedulerKit"], path: "Tests/TestSupport", swiftSettings: strict),
        .testTarget(name: "SchedulerKitTests", dependencies: ["SchedulerKit", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "ConformanceTests",
            dependencies: ["SchedulerConformance", "SchedulerConformanceNIO", "SchedulerKit"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SchedulerBenchTests",
            dependencies: ["SchedulerBench", "SchedulerKit", "ToolSupport", "TestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SchedulerKitNIOTests",
            dependencies: [
                "SchedulerKitNIO",
                "SchedulerKit",
                "TestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
