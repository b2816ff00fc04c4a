// swift-tools-version:6.0
import PackageDescription

/// Every target builds in the Swift 6 language mode with complete concurrency checking, as the framework's do.
let strict: [SwiftSetting] = [.enableUpcomingFeature("InternalImportsByDefault")]

// Apps built on Screenplay the way an outside package builds them: through the framework's public products only.
let package = Package(
    name: "ScreenplayExamples",
    products: [
        .executable(name: "Counter", targets: ["Counter"]),
        .executable(name: "todos", targets: ["todos"]),
        .library(name: "TodoApp", targets: ["TodoApp"]),
    ],
    dependencies: [
        // An outside package names the repository instead: `.package(url: "…/screenplay.git", from: "…")`.
        .package(name: "Screenplay", path: "..")
    ],
    targets: [
        // The README's "A screen in twenty lines", verbatim; its template is found with `--root Sources/Counter`.
        .executableTarget(
            name: "Counter", dependencies: [.product(name: "Screenplay", package: "Screenplay")],
            exclude: ["Templates"], swiftSettings: strict),

        // Every ```swift snippet of the README and the DocC articles, compiled (see Scripts/extract-snippets.py).
        .target(
            name: "DocSnippets",
            dependencies: [
                .product(name: "Screenplay", package: "Screenplay"),
                .product(name: "ScreenplayTesting", package: "Screenplay"),
                .product(name: "Reactive", package: "Screenplay"),
                .product(name: "ReactiveTesting", package: "Screenplay"),
            ],
            // Templates/ makes it a target with resources, as the snippets that read `Bundle.module` expect.
            path: "DocSnippets", resources: [.copy("Templates")], swiftSettings: strict),

        // A shared to-do list behind the sign-in: screens, store and server, with its templates and accounts.
        .target(
            name: "TodoApp", dependencies: [.product(name: "Screenplay", package: "Screenplay")],
            resources: [.copy("Templates"), .copy("Public"), .copy("accounts.txt")], swiftSettings: strict),
        .executableTarget(name: "todos", dependencies: ["TodoApp"], swiftSettings: strict),
        .testTarget(
            name: "TodoAppTests",
            dependencies: ["TodoApp", .product(name: "ScreenplayTesting", package: "Screenplay")],
            exclude: ["__Snapshots__"], swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
