// swift-tools-version:6.0
import PackageDescription

/// Every Swift target builds in the Swift 6 language mode with complete concurrency checking.
let strict: [SwiftSetting] = [.enableUpcomingFeature("InternalImportsByDefault")]

// Builds on Linux (Debian) only: the server and the renderer call Glibc and epoll directly, and the C libraries come
// from Debian's packages through the system-library targets below.
let package = Package(
    name: "Screenplay",
    products: [
        .library(name: "Reactive", targets: ["Reactive"]),
        .library(name: "ReactiveTesting", targets: ["ReactiveTesting"]),
        .library(name: "HTTPServer", targets: ["HTTPServer"]),
        .library(name: "ViewKit", targets: ["ViewKit"]),
        .library(name: "Screenplay", targets: ["Screenplay"]),
        .library(name: "ScreenplayTesting", targets: ["ScreenplayTesting"]),
        .executable(name: "movies", targets: ["movies"]),
    ],
    targets: [
        // C libraries from Debian, each behind one door.
        .systemLibrary(
            name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CGumbo", pkgConfig: "gumbo", providers: [.apt(["libgumbo-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CMimalloc", providers: [.apt(["libmimalloc-dev"])]),

        // The framework, in dependency order. Primitives, at the bottom: the locks and the transfer box every module
        // shares, and the C doors below Foundation (thread-local slots, libdispatch's function-pointer `async`).
        .target(name: "Primitives", swiftSettings: strict),
        .target(name: "Reactive", dependencies: ["Primitives"], swiftSettings: strict),
        // Virtual time and recorded events for tests of reactive code, apart from it as RxTest is from RxSwift.
        .target(name: "ReactiveTesting", dependencies: ["Reactive", "Primitives"], swiftSettings: strict),
        .target(name: "HTTPServer", dependencies: ["Primitives", "CMicroHTTPD"], swiftSettings: strict),
        .target(name: "ViewKit", dependencies: ["Primitives", "Reactive", "CGumbo"], swiftSettings: strict),
        .target(
            name: "Screenplay", dependencies: ["Primitives", "ViewKit", "Reactive", "HTTPServer", "CCrypto"],
            resources: [.embedInCode("Client")],
            swiftSettings: strict),
        .target(
            name: "ScreenplayTesting", dependencies: ["Primitives", "Screenplay", "ViewKit", "Reactive"],
            swiftSettings: strict),

        // The demo app.
        .target(
            name: "MovieApp", dependencies: ["Primitives", "Screenplay", "CSQLite", "CLibPQ"], swiftSettings: strict),
        .executableTarget(
            name: "movies", dependencies: ["MovieApp", "Primitives", "CMimalloc"], swiftSettings: strict),
        .executableTarget(
            name: "ViewKitBenchmarks", dependencies: ["ViewKit"], path: "Benchmarks/ViewKitBenchmarks",
            exclude: ["README.md"], swiftSettings: strict),

        // Load tools, outside the library targets.
        .executableTarget(
            name: "HTTPBenchmarkServer", dependencies: ["HTTPServer"], path: "Benchmarks/HTTPBenchmarkServer",
            swiftSettings: strict),

        // libFuzzer targets; an ordinary build replays their corpora (see the Makefile's `fuzz`).
        .executableTarget(
            name: "ScreenplayFuzz", dependencies: ["HTTPServer", "ViewKit", "MovieApp", "CGumbo", "Screenplay"],
            path: "Fuzz/ScreenplayFuzz", swiftSettings: strict),

        // Benchmarks (release mode, outside the library targets).
        .executableTarget(
            name: "ReactiveBenchmarks", dependencies: ["Reactive"], path: "Benchmarks/ReactiveBenchmarks",
            swiftSettings: strict),

        // Tests, and what several test targets share.
        .target(name: "TestSupport", path: "Tests/TestSupport", swiftSettings: strict),
        // A server whose screens each make a programmer error, run as a child process by ScreenplayTests.
        .executableTarget(
            name: "MistakesServer", dependencies: ["Screenplay"], path: "Tests/MistakesServer", swiftSettings: strict),
        .testTarget(
            name: "ReactiveTests", dependencies: ["Primitives", "Reactive", "ReactiveTesting", "TestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "HTTPServerTests", dependencies: ["HTTPServer", "ScreenplayTesting", "TestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "ViewKitTests", dependencies: ["ViewKit", "ScreenplayTesting", "CGumbo"],
            exclude: ["__Snapshots__", "Fixtures"], swiftSettings: strict),
        .testTarget(
            name: "ScreenplayTestingTests", dependencies: ["ScreenplayTesting", "ViewKit"],
            exclude: ["__Snapshots__"], swiftSettings: strict),
        .testTarget(
            name: "ScreenplayTests", dependencies: ["Screenplay", "ScreenplayTesting", "TestSupport"],
            exclude: ["__Snapshots__", "Fixtures"], swiftSettings: strict),
        .testTarget(
            name: "MovieAppTests", dependencies: ["MovieApp", "ScreenplayTesting", "TestSupport", "ReactiveTesting"],
            exclude: ["__Snapshots__"], swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
