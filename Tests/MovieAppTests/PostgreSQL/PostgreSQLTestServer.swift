import Foundation
import TestSupport

@testable import MovieApp

/// The throwaway PostgreSQL cluster `make test` starts (`Deployment/postgres.sh`), named by
/// `SCREENPLAY_TEST_POSTGRES` (its URL) and `SCREENPLAY_TEST_POSTGRES_DIR` (its folder, to restart it). Each test
/// gets a database of its own, so suites run in parallel.
///
/// `make test` also sets `SCREENPLAY_REQUIRE_POSTGRES=1`: there a missing cluster fails
/// (`PostgreSQLAvailabilityTests`) instead of leaving these suites disabled.
enum PostgreSQLTestServer {
    static let url = ProcessInfo.processInfo.environment["SCREENPLAY_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }
    static let folder = ProcessInfo.processInfo.environment["SCREENPLAY_TEST_POSTGRES_DIR"]
    static var isAvailable: Bool { url != nil }

    /// A new empty database's URL.
    static func makeDatabase() throws -> String {
        guard let url, let address = PostgreSQLAddress(url) else {
            throw StoreError(.unavailable, message: "SCREENPLAY_TEST_POSTGRES is not set")
        }
        let name = "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let admin = try PostgreSQLConnection(address)
        try admin.execute("CREATE DATABASE \(name)", [], "creating a test database")
        return url.replacingOccurrences(of: "@/postgres?", with: "@/\(name)?")
    }

    /// Runs `sql` on the database at `url`, outside any store.
    @discardableResult
    static func execute(_ sql: String, _ parameters: [String?] = [], on url: String) throws -> [[String?]] {
        guard let address = PostgreSQLAddress(url) else { throw StoreError(.unavailable, message: "bad URL") }
        return try PostgreSQLConnection(address).execute(sql, parameters, "a test's query")
    }

}

/// A PostgreSQL cluster of a test's own (`Deployment/postgres.sh` in a temporary folder), for tests that stop or
/// restart the server: the shared one serves the suites running alongside. Stopped and removed when released.
final class PrivateCluster {
    let folder: TemporaryFolder
    let url: String

    init() throws {
        folder = try TemporaryFolder()
        url = try Self.run("start", folder.path("cluster"))
    }

    deinit {
        _ = try? Self.run("stop", folder.path("cluster"))
    }

    func stop() throws { _ = try Self.run("stop", folder.path("cluster")) }
    func start() throws { _ = try Self.run("start", folder.path("cluster")) }
    func restart() throws { _ = try Self.run("restart", folder.path("cluster")) }

    /// Runs `postgres.sh command folder` and answers what it printed.
    @discardableResult
    private static func run(_ command: String, _ folder: String) throws -> String {
        let script = repositoryRoot.appendingPathComponent("Deployment/postgres.sh").path
        let process = try ChildProcess("/bin/bash", [script, command, folder], standardOutput: .pipe)
        var output: [UInt8] = []
        while case let bytes = process.readOutput(), !bytes.isEmpty { output += bytes }
        let termination = process.wait()
        guard termination == .exited(0) else {
            throw StoreError(.unavailable, message: "postgres.sh \(command): \(termination)")
        }
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
