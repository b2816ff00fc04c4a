import Foundation
import MovieApp
import Synchronization
import TestSupport
import Testing

/// `kill -9` in the middle of a stream of PATCHes: after a restart the database opens, is consistent, and holds
/// every PATCH the server acknowledged.
@Suite struct CrashRecoveryTests {
    /// The `movies` executable beside this test bundle.
    private var moviesExecutable: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("movies")
            .path
    }

    @Test func everyAcknowledgedPatchSurvivesAKill9() throws {
        try #require(FileManager.default.isExecutableFile(atPath: moviesExecutable))
        let folder = try TemporaryFolder()
        let database = folder.path("movies.sqlite")
        let catalog = try folder.catalog(sampleMovies(1...5))
        let port = freeTCPPort()
        let process = try ChildProcess(
            moviesExecutable,
            [
                "--root", repositoryRoot.path, "--port", "\(port)", "--database", database, "--catalog", catalog,
                "--log-level", "error",
            ], standardOutput: .discard, standardError: .discard)
        #expect(eventuallyServing(port: port))

        // Five writers, one per movie, each remembering the last year the server acknowledged.
        let acknowledged = TestMutex<[Int: Int]>([:])
        let stop = Atomic<Bool>(false)
        let total = Atomic<Int>(0)
        let group = DispatchGroup()
        for movie in 1...5 {
            group.enter()
            DispatchQueue.global().async {
                defer { group.leave() }
                var year = 1900
                while !stop.load(ordering: .relaxed) {
                    year += 1
                    guard
                        let response = try? send(
                            "PATCH", "/api/movies/\(movie)", port: port, headers: ["Content-Type": "application/json"],
                            body: Array(#"{"year": \#(year)}"#.utf8)),
                        response.status == 200
                    else { return }
                    acknowledged.withLock { $0[movie] = year }
                    total.add(1, ordering: .relaxed)
                }
            }
        }
        while total.load(ordering: .relaxed) < 200 { usleep(1_000) }
        process.send(SIGKILL)
        process.wait()
        stop.store(true, ordering: .relaxed)
        group.wait()

        let store = try SQLiteMovieStore(path: database)
        let movies = try store.allMovies()
        #expect(movies.count == 5)
        for (movie, year) in acknowledged.withLock({ $0 }) {
            let stored = try #require(movies.first { $0.id == movie }).year
            // The PATCH in flight at the kill may or may not have committed; nothing acknowledged may be missing.
            #expect(stored == year || stored == year + 1, "movie \(movie): acknowledged \(year), stored \(stored)")
        }
    }

    private func eventuallyServing(port: Int) -> Bool {
        for _ in 0..<100 {
            if (try? send("GET", "/healthz", port: port))?.status == 200 { return true }
            usleep(50_000)
        }
        return false
    }
}
