// swift-tools-version: 6.1
import PackageDescription

// Probes for the fresh-2026-12 mutants: one small program per mutant, public API only, selected by argument
// (`swift run Probes <name>`; `swift run Probes list` names them). Not part of the main package.
let package = Package(
    name: "Probes",
    dependencies: [
        .package(name: "SchedulerKit", path: "../../../.."),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    ],
    targets: [
        .executableTarget(
            name: "Probes",
            dependencies: [
                .product(name: "SchedulerKit", package: "SchedulerKit"),
                .product(name: "SchedulerKitNIO", package: "SchedulerKit"),
                .product(name: "SchedulerKitCombine", package: "SchedulerKit"),
                .product(name: "SchedulerExplorer", package: "SchedulerKit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "OpenCombine", package: "OpenCombine"),
            ]
        )
    ]
)
