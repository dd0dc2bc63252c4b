// swift-tools-version: 6.1
import PackageDescription

// A package outside SchedulerKit that checks and benches a scheduler of its own with SchedulerKit's public API only:
// the conformance kit (SchedulerConformance) and the bench library (SchedulerBench), and explores its own async
// code (SchedulerExplorer). SchedulerKit's own test target
// PublicAPITests compiles the scheduler and the tests of this package too, so `swift test` there keeps them honest.
//
// It enables none of SchedulerKit's package traits (`traits: []`), so it resolves neither swift-nio nor OpenCombine:
// the kit and the bench need no peer. `scripts/check-fixture.sh` (CI) checks the resolution and runs its tests.
//
//   swift run -c release your-bench        # the kit's verdicts and a quick bench beside the thread pool
//   swift test                             # the kit as a Swift Testing suite
let package = Package(
    name: "BenchYourOwn",
    dependencies: [.package(name: "SchedulerKit", path: "../../..", traits: [])],
    targets: [
        .target(
            name: "YourScheduler",
            dependencies: [
                .product(name: "SchedulerKit", package: "SchedulerKit"),
                .product(name: "SchedulerBench", package: "SchedulerKit"),
                .product(name: "SchedulerConformance", package: "SchedulerKit"),
            ]
        ),
        .executableTarget(
            name: "your-bench",
            dependencies: [
                "YourScheduler",
                .product(name: "SchedulerKit", package: "SchedulerKit"),
                .product(name: "SchedulerBench", package: "SchedulerKit"),
                .product(name: "SchedulerConformance", package: "SchedulerKit"),
            ]
        ),
        .testTarget(
            name: "YourSchedulerTests",
            dependencies: [
                "YourScheduler",
                .product(name: "SchedulerExplorer", package: "SchedulerKit"),
                .product(name: "SchedulerKit", package: "SchedulerKit"),
                .product(name: "SchedulerBench", package: "SchedulerKit"),
                .product(name: "SchedulerConformance", package: "SchedulerKit"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
