import Foundation
import MovieApp
import ScreenplayTesting
import Synchronization
import TestSupport
import Testing

/// Three `movies` instances on one PostgreSQL database, over real sockets: changes reach every instance's screens,
/// a screen survives losing its instance, and no acknowledged write is lost to a `kill -9` or a database restart.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable), .serialized)
struct MultiInstanceTests {
    /// A running instance.
    final class Instance {
        let name: String
        let port: Int
        let process: ChildProcess
        /// The browser the test drives on this instance.
        private let browser = LiveClient(port: 0)
        var client: LiveClient { LiveClient(port: port, timeout: 5, sameBrowserAs: browser) }

        init(name: String, database: String, catalog: String) throws {
            self.name = name
            port = freeTCPPort()
            let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
                .appendingPathComponent("movies").path
            process = try ChildProcess(
                executable,
                [
                    "--root", repositoryRoot.path, "--port", "\(port)", "--database", database, "--catalog", catalog,
                    "--instance", name, "--log-level", "error", "--no-access-log",
                ], standardOutput: .discard, standardError: .discard)
            guard eventually(within: 10, { (try? send("GET", "/healthz", port: port))?.status == 200 }) else {
                throw LiveClientError(description: "instance \(name) did not start")
            }
        }

        /// Opens `path`'s screen here and attaches it to a new shared stream here.
        func watch(_ path: String) throws -> (page: LivePage, stream: LiveSharedStream) {
            let page = LivePage(try client.get(path))
            let stream = try client.openSharedStream()
            let attached = try client.attach(page, to: stream.id)
            guard attached.status == 204 else { throw LiveClientError(description: "attach: \(attached.status)") }
            return (page, stream)
        }
    }

    let folder: TemporaryFolder
    let database: String
    let catalog: String

    init() throws {
        folder = try TemporaryFolder()
        database = try PostgreSQLTestServer.makeDatabase()
        catalog = try folder.catalog(sampleMovies(1...3))
    }

    private func start(_ names: [String]) throws -> [Instance] {
        try names.map { try Instance(name: $0, database: database, catalog: catalog) }
    }

    private static func patch(_ field: String, _ value: String, of movie: Int, port: Int) throws -> Int {
        try send(
            "PATCH", "/api/movies/\(movie)", port: port, headers: ["Content-Type": "application/json"],
            body: Array(#"{"\#(field)": \#(value)}"#.utf8)
        ).status
    }

    private func patchRating(_ rating: Double, of movie: Int, on instance: Instance) throws -> Int {
        try Self.patch("rating", String(rating), of: movie, port: instance.port)
    }

    @Test func aPatchToOneInstanceReachesTheOpenScreensOfTheOthers() throws {
        let instances = try start(["a", "b", "c"])
        let watchers = try instances[1...].map { try $0.watch("/movies/1") }
        defer { for watcher in watchers { watcher.stream.close() } }
        #expect(
            watchers.allSatisfy {
                $0.page.screenID?.hasPrefix("b.") == true || $0.page.screenID?.hasPrefix("c.") == true
            })
        #expect(try patchRating(4.2, of: 1, on: instances[0]) == 200)
        for watcher in watchers {
            let patch = try watcher.stream.events.next { $0.event == "patch" }
            #expect(patch?.data.contains(">4.2<") == true)
            #expect(patch?.screen == watcher.page.screenID)
        }
        let metrics = try instances[1].client.get("/metrics").text
        #expect(metrics.contains("movies_store_info{kind=\"postgresql\"} 1"))
        #expect(metrics.contains("movies_store_notifications_total 1"))
    }

    @Test func aCreationAndADeletionOnOneInstanceReachAListAndADetailOnAnother() throws {
        let instances = try start(["a", "b"])
        let list = try instances[1].watch("/")
        defer { list.stream.close() }
        let detail = try instances[1].watch("/movies/2")
        defer { detail.stream.close() }
        let body = #"{"title": "Aaa Made On A", "year": 2020, "runtimeMinutes": 90, "rating": 5, "overview": "O."}"#
        let created = try send(
            "POST", "/api/movies", port: instances[0].port, headers: ["Content-Type": "application/json"],
            body: Array(body.utf8))
        #expect(created.status == 201)
        let inserted = try list.stream.events.next { $0.event == "patch" && $0.data.contains("Aaa Made On A") }
        #expect(inserted?.screen == list.page.screenID)
        #expect(try send("DELETE", "/api/movies/2", port: instances[0].port).status == 204)
        #expect(try send("DELETE", "/api/movies/2", port: instances[1].port).status == 404)
        let removed = try list.stream.events.next { $0.event == "patch" && $0.data.hasPrefix(#"[["remove","#) }
        #expect(removed != nil)
        let gone = try detail.stream.events.next { $0.event == "patch" && $0.data.contains("no longer in the catalog") }
        #expect(gone?.screen == detail.page.screenID)
    }

    @Test func aStreamThatReconnectsToAnotherInstanceGetsTheScreenRebuiltAndReset() throws {
        let instances = try start(["a", "b"])
        let page = LivePage(try instances[0].client.get("/movies/2"))
        #expect(page.screenID?.hasPrefix("a.") == true)
        instances[0].process.send(SIGKILL)
        instances[0].process.wait()
        let stream = try instances[1].client.openSharedStream()
        defer { stream.close() }
        #expect(try instances[1].client.attach(page, to: stream.id).status == 204)
        let rebuilt = try #require(try stream.events.next())
        #expect(rebuilt.event == "rebuilt")
        #expect(rebuilt.data.contains(#""replaces":"\#(page.screenID!)""#))
        let reset = try #require(try stream.events.next())
        #expect(reset.event == "reset")
        #expect(reset.screen?.hasPrefix("b.") == true)
        // The rebuilt screen is live on its new instance.
        #expect(try patchRating(3.7, of: 2, on: instances[1]) == 200)
        #expect(try stream.events.next { $0.event == "patch" }?.data.contains(">3.7<") == true)
    }

    @Test func everyAcknowledgedPatchSurvivesAKill9OfAnInstanceAndReachesTheSurvivingScreens() throws {
        let instances = try start(["a", "b", "c"])
        let watchers = try (1...3).map { movie in try instances[2].watch("/movies/\(movie)") }
        defer { for watcher in watchers { watcher.stream.close() } }
        let port = instances[0].port
        let acknowledged = TestMutex<[Int: Int]>([:])
        let killed = Atomic<Bool>(false)
        let group = DispatchGroup()
        for movie in 1...3 {
            group.enter()
            DispatchQueue.global().async {
                defer { group.leave() }
                var step = 0
                // Writers go through the instance that will die, until it does.
                while step < 225 {
                    step += 1
                    let status = try? Self.patch("year", String(1870 + step), of: movie, port: port)
                    // A request that fails before the kill (a busy accept queue) is tried again; after it, the
                    // writer stops. What was acknowledged is what counts.
                    if status != 200 {
                        if killed.load(ordering: .relaxed) { return }
                        step -= 1
                        continue
                    }
                    acknowledged.withLock { $0[movie] = step }
                }
            }
        }
        // Each writer well under way (the pool may start one late).
        #expect(eventually(within: 20) { acknowledged.withLock { $0.count == 3 && $0.values.allSatisfy { $0 >= 20 } } })
        killed.store(true, ordering: .relaxed)
        instances[0].process.send(SIGKILL)
        instances[0].process.wait()
        group.wait()
        for movie in 1...3 {
            let step = try #require(acknowledged.withLock { $0[movie] })
            let stored = try #require(
                try PostgreSQLTestServer.execute("SELECT year FROM movies WHERE id = $1", [String(movie)], on: database)
                    .first?.first ?? nil)
            // The PATCH in flight at the kill may or may not have committed; nothing acknowledged may be missing.
            let storedStep = try #require(Int(stored)) - 1870
            #expect(
                storedStep == step || storedStep == step + 1, "movie \(movie): acknowledged \(step), stored \(stored)")
            // The screen on a surviving instance ends showing what is stored.
            let expected = ">\(stored) · "
            let shown = try watchers[movie - 1].stream.events.next { $0.event == "patch" && $0.data.contains(expected) }
            #expect(shown != nil, "movie \(movie): the screen on c never showed \(expected)")
        }
    }

    /// A rating for the `step`th write, from 0.1 to 9.0 (ratings keep one decimal), always one that changes the movie.
    private static func rating(_ step: Int) -> Double { Double(step % 90 + 1) / 10 }

    @Test func theInstancesRecoverAndResyncWhenPostgreSQLRestartsUnderLoad() throws {
        let cluster = try PrivateCluster()
        let database = cluster.url
        let instances = try ["a", "b"].map { try Instance(name: $0, database: database, catalog: catalog) }
        let watcher = try instances[1].watch("/movies/1")
        defer { watcher.stream.close() }
        let port = instances[0].port
        let acknowledged = TestMutex<[Int]>([])
        let stop = Atomic<Bool>(false)
        let writer = DispatchGroup()
        writer.enter()
        DispatchQueue.global().async {
            defer { writer.leave() }
            var step = 0
            while !stop.load(ordering: .relaxed) {
                step += 1
                if (try? Self.patch("rating", String(Self.rating(step)), of: 1, port: port)) == 200 {
                    acknowledged.withLock { $0.append(step) }
                }
                usleep(2_000)
            }
        }
        #expect(eventually(within: 10) { acknowledged.withLock { $0.count } >= 20 })
        try cluster.restart()
        let afterRestart = acknowledged.withLock { $0.count }
        #expect(eventually(within: 15) { acknowledged.withLock { $0.count } >= afterRestart + 20 })
        stop.store(true, ordering: .relaxed)
        writer.wait()
        let last = try #require(acknowledged.withLock { $0.last })
        let stored = try PostgreSQLTestServer.execute("SELECT rating FROM movies WHERE id = 1", on: database)
        #expect(stored.first?.first?.flatMap(Double.init) == Self.rating(last), "the last acknowledged write is stored")
        for instance in instances {
            #expect(eventually(within: 10) { (try? send("GET", "/readyz", port: instance.port))?.status == 200 })
        }
        // b's listener came back: a new write on a reaches b's screen.
        #expect(try patchRating(8.5, of: 1, on: instances[0]) == 200)
        #expect(try watcher.stream.events.next { $0.event == "patch" && $0.data.contains(">8.5<") } != nil)
        let metrics = try instances[1].client.get("/metrics").text
        #expect(!metrics.contains("movies_store_resyncs_total 0\n"))
    }
}

extension MultiInstanceTests {
    @Test func whilePostgreSQLIsDownReadinessAndWritesAnswer503AndEverythingRecoversWhenItIsBack() throws {
        let cluster = try PrivateCluster()
        let instances = try ["a", "b"].map { try Instance(name: $0, database: cluster.url, catalog: catalog) }
        let watcher = try instances[1].watch("/movies/2")
        defer { watcher.stream.close() }
        try cluster.stop()
        for instance in instances {
            #expect((try send("GET", "/readyz", port: instance.port)).status == 503)
        }
        let refused = try send(
            "PATCH", "/api/movies/2", port: instances[0].port, headers: ["Content-Type": "application/json"],
            body: Array(#"{"title": "Half"}"#.utf8))
        #expect(refused.status == 503)
        try cluster.start()
        for instance in instances {
            #expect(eventually(within: 10) { (try? send("GET", "/readyz", port: instance.port))?.status == 200 })
        }
        let stored = try PostgreSQLTestServer.execute("SELECT title FROM movies WHERE id = 2", on: cluster.url)
        #expect(stored == [["Sample 2"]], "the refused write left nothing behind")
        // Both listeners are back: a write through a reaches b's screen.
        #expect(
            eventually(within: 10) {
                (try? send(
                    "PATCH", "/api/movies/2", port: instances[0].port, headers: ["Content-Type": "application/json"],
                    body: Array(#"{"rating": 6.6}"#.utf8)))?.status == 200
            })
        #expect(try watcher.stream.events.next { $0.event == "patch" && $0.data.contains(">6.6<") } != nil)
    }
}

/// A TCP port nothing listens on right now, on 127.0.0.1.
func freeTCPPort() -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(descriptor, pointer, length)
            return getsockname(descriptor, pointer, &length)
        }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}
