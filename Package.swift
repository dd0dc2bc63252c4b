// swift-tools-version: 6.0
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "SchedulerKit",
    products: [
        .library(name: "SchedulerKit", targets: ["SchedulerKit"]),
        .library(name: "SchedulerConformance", targets: ["SchedulerConformance"]),
        .library(name: "SchedulerBench", targets: ["SchedulerBench"]),
        .executable(name: "bench", targets: ["bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
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
        .target(name: "SchedulerConformance", dependencies: ["SchedulerKit"], swiftSettings: strict),
        .target(name: "CJemalloc", linkerSettings: [.linkedLibrary("dl")]),
        .target(
            name: "SchedulerBench",
            dependencies: [
                "SchedulerKit",
                "CJemalloc",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "bench",
            dependencies: [
                "SchedulerBench",
                "SchedulerConformance",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Benchmarks/bench",
            swiftSettings: strict
        ),
        .testTarget(name: "SchedulerKitTests", dependencies: ["SchedulerKit"], swiftSettings: strict),
        .testTarget(name: "ConformanceTests", dependencies: ["SchedulerConformance", "SchedulerKit"], swiftSettings: strict),
        .testTarget(name: "SchedulerBenchTests", dependencies: ["SchedulerBench"], swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
