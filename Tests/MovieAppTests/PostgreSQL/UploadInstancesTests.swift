import Foundation
import Glibc
import MovieApp
import ScreenplayTesting
import TestSupport
import Testing

/// Resumable uploads on two `movies` instances sharing one PostgreSQL database: an upload started on one, cut off
/// mid-body and with its instance stopped, resumes on the other from the offset acknowledged, byte for byte.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable), .serialized)
struct UploadInstancesTests {
    let folder: TemporaryFolder
    let database: String
    let catalog: String

    init() throws {
        folder = try TemporaryFolder()
        database = try PostgreSQLTestServer.makeDatabase()
        catalog = try folder.catalog(sampleMovies(1...2))
    }

    private func start(_ name: String) throws -> MultiInstanceTests.Instance {
        try MultiInstanceTests.Instance(name: name, database: database, catalog: catalog)
    }

    private static let tus = ["Tus-Resumable": "1.0.0"]

    private static func head(_ path: String, port: Int) throws -> HTTPTestResponse {
        try send("HEAD", path, port: port, headers: tus)
    }

    @Test func anUploadCutOffOnOneInstanceResumesOnAnotherFromItsAcknowledgedOffset() throws {
        let a = try start("a")
        let b = try start("b")
        let page = LivePage(try a.client.get("/movies/1"))
        let content = (0..<700_000).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 17) }
        let metadata = [("screen", page.sessionID ?? ""), ("csrf", page.csrfToken ?? ""), ("filename", "p.png")]
            .map { "\($0.0) \(Data($0.1.utf8).base64EncodedString())" }.joined(separator: ",")
        // From the browser the page was rendered for: its token is signed for that browser's cookie.
        let browser = "screenplay_browser=" + (a.client.storedCookies["screenplay_browser"] ?? "")
        let created = try send(
            "POST", "/uploads", port: a.port,
            headers: [
                "Tus-Resumable": "1.0.0", "Upload-Length": String(content.count), "Upload-Metadata": metadata,
                "Cookie": browser,
            ])
        #expect(created.status == 201)
        let path = try #require(created.headers["location"])

        // 600,000 bytes of 700,000 reach instance a, then the client goes away. libmicrohttpd may not notice the end
        // of a connection whose bytes it was still working through until its idle timeout: HEAD counts every byte
        // received meanwhile, and the next PATCH takes the upload over.
        let connection = try LiveConnection(port: a.port)
        try connection.send(
            Array(
                ("PATCH \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nTus-Resumable: 1.0.0\r\nUpload-Offset: 0\r\n"
                    + "Content-Type: application/offset+octet-stream\r\nContent-Length: 700000\r\n\r\n").utf8)
                + content[..<600_000])
        connection.close()
        #expect(eventually { (try? Self.head(path, port: a.port))?.headers["upload-offset"] == "600000" })
        a.process.send(SIGTERM)
        _ = a.process.wait()

        let resumed = try Self.head(path, port: b.port)
        #expect(resumed.status == 200)
        #expect(resumed.headers["upload-offset"] == "600000")
        #expect(resumed.headers["upload-length"] == "700000")
        // A stale offset is refused on this instance too.
        let stale = try send(
            "PATCH", path, port: b.port,
            headers: [
                "Tus-Resumable": "1.0.0", "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream",
            ],
            body: Array(content[..<10]))
        #expect(stale.status == 409)
        let rest = try send(
            "PATCH", path, port: b.port,
            headers: [
                "Tus-Resumable": "1.0.0", "Upload-Offset": "600000",
                "Content-Type": "application/offset+octet-stream",
            ], body: Array(content[600_000...]))
        #expect(rest.status == 204)
        #expect(rest.headers["upload-offset"] == "700000")

        let id = String(path.dropFirst("/uploads/".count))
        let rows = try PostgreSQLTestServer.execute(
            "SELECT encode(data, 'hex') FROM upload_chunks WHERE upload_id = $1 ORDER BY chunk_offset", [id],
            on: database)
        let stored = rows.compactMap { $0.first ?? nil }.joined()
        #expect(stored == content.map { String(format: "%02x", $0) }.joined())

        let terminated = try send("DELETE", path, port: b.port, headers: Self.tus)
        #expect(terminated.status == 204)
        #expect(try Self.head(path, port: b.port).status == 404)
        let left = try PostgreSQLTestServer.execute(
            "SELECT count(*) FROM upload_chunks WHERE upload_id = $1", [id], on: database)
        #expect(left.first?.first == "0")
    }

    /// A proxy may send an upload's requests to any instance: its events still reach the file field of the screen
    /// the page's stream holds on its own instance, which keeps the poster; the instance that took the bytes builds
    /// no screen of its own.
    @Test func anUploadTakenByAnotherInstanceReachesItsScreenWhereItLives() throws {
        let a = try start("a")
        let b = try start("b")
        let client = a.client
        let form = LivePage(try client.get("/signin?next=/movies/1/edit"))
        _ = try client.post(
            try #require(form.actionPath("signIn")),
            form: ["csrf": try #require(form.csrfToken), "name": "alice", "password": "screenplay-alice"])
        let (edit, stream) = try a.watch("/movies/1/edit")
        defer { stream.close() }
        let screen = try #require(edit.sessionID)
        #expect(screen.hasPrefix("a."))

        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<50_000).map { UInt8($0 % 253) }
        let metadata = [
            ("screen", screen), ("csrf", edit.csrfToken ?? ""), ("field", "poster"), ("filename", "b.png"),
            ("filetype", "image/png"),
        ].map { "\($0.0) \(Data($0.1.utf8).base64EncodedString())" }.joined(separator: ",")
        let cookies = client.storedCookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
        let created = try send(
            "POST", "/uploads", port: b.port,
            headers: [
                "Tus-Resumable": "1.0.0", "Upload-Length": String(png.count), "Upload-Metadata": metadata,
                "Content-Type": "application/offset+octet-stream", "Cookie": cookies,
            ], body: png)
        #expect(created.status == 201)
        #expect(created.headers["upload-offset"] == String(png.count))
        let key = String(try #require(created.headers["location"]).dropFirst("/uploads/".count))

        // The screen on a hears the upload's end and keeps the poster; its page shows it.
        #expect(try stream.events.next { $0.event == "patch" && $0.data.contains("The new poster is saved.") } != nil)
        let movie = String(decoding: try send("GET", "/api/movies/1", port: b.port).body, as: UTF8.self)
        #expect(movie.contains("/posters/\(key)"))
        #expect(try send("GET", "/posters/\(key)", port: b.port).body == png)
        // b took the bytes but built no screen: the page's screen lives on a alone.
        let metrics = String(decoding: try send("GET", "/metrics", port: b.port).body, as: UTF8.self)
        let gauge = metrics.split(separator: "\n")
            .first { $0.hasPrefix("screenplay_sessions_open ") }
        #expect(gauge == "screenplay_sessions_open 0")

        // A page's token does not open another browser's upload on another instance either.
        let stranger = try send(
            "POST", "/uploads", port: b.port,
            headers: ["Tus-Resumable": "1.0.0", "Upload-Length": "100", "Upload-Metadata": metadata])
        #expect(stranger.status == 403)
    }
}
