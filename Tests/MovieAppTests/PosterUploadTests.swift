import Foundation
import MovieApp
import Screenplay
import ScreenplayTesting
import TestSupport
import Testing

/// The edit screen's Poster field, over real sockets on the SQLite store: a finished upload becomes the movie's poster
/// byte for byte, served with caching headers, and an open detail page shows it without reloading.
@Suite struct PosterUploadTests {
    /// A PNG's signature, then bytes of no meaning: the endpoint and the store tell a file by its first bytes only.
    static let png: [UInt8] =
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        + (0..<300_000).map {
            UInt8(truncatingIfNeeded: $0 &* 7 &+ 3)
        }

    private static func metadata(_ page: LivePage, filename: String) -> String {
        [
            ("screen", page.sessionID ?? ""), ("csrf", page.csrfToken ?? ""), ("field", "poster"),
            ("filename", filename), ("filetype", "image/png"),
        ].map { "\($0.0) \(Data($0.1.utf8).base64EncodedString())" }.joined(separator: ",")
    }

    @Test func aFinishedPosterUploadIsTheMoviesPosterByteForByteAndOpenPagesShowIt() throws {
        let folder = try TemporaryFolder()
        let server = try startServer(databaseIn: folder)
        defer { server.stop() }
        let client = LiveClient(port: server.port)
        // A reader's open detail page, live.
        let reader = LiveClient(port: server.port)
        let detail = LivePage(try reader.get("/movies/1"))
        #expect(detail.html.contains("/public/posters/1.svg"))
        let events = try reader.openEvents(for: detail)
        defer { events.close() }

        let form = LivePage(try client.get("/signin?next=/movies/1/edit"))
        _ = try client.post(
            try #require(form.actionPath("signIn")),
            form: ["csrf": try #require(form.csrfToken), "name": "alice", "password": "screenplay-alice"])
        let edit = LivePage(try client.get("/movies/1/edit"))
        #expect(edit.html.contains("<label for=\"") && edit.html.contains(">Poster</label>"))
        #expect(edit.html.contains("name=\"poster\"") && edit.html.contains("type=\"file\""))

        let created = try client.request(
            "POST", "/uploads",
            headers: [
                "Tus-Resumable": "1.0.0", "Upload-Length": String(Self.png.count),
                "Upload-Metadata": Self.metadata(edit, filename: "heat.png"),
            ])
        #expect(created.status == 201)
        let location = try #require(created.header("Location"))
        for (start, end) in [(0, 100_000), (100_000, Self.png.count)] {
            let answer = try client.request(
                "PATCH", location,
                headers: [
                    "Tus-Resumable": "1.0.0", "Upload-Offset": String(start),
                    "Content-Type": "application/offset+octet-stream",
                ], body: Array(Self.png[start..<end]))
            #expect(answer.status == 204)
        }

        // The open detail page hears of the new poster.
        let patch = try #require(try events.next { $0.event == "patch" && $0.data.contains("/posters/") })
        let key = try #require(
            patch.data.range(of: "/posters/").map { String(patch.data[$0.upperBound...].prefix(22)) })
        let poster = try reader.get("/posters/" + key)
        #expect(poster.status == 200)
        #expect(poster.body == Self.png)
        #expect(poster.header("Content-Type") == "image/png")
        #expect(poster.header("ETag") == "\"\(key)\"")
        #expect(poster.header("Cache-Control")?.contains("immutable") == true)
        #expect(try reader.get("/posters/" + key, headers: ["If-None-Match": "\"\(key)\""]).status == 304)
        #expect(try reader.get("/posters/AAAAAAAAAAAAAAAAAAAAAA").status == 404)
        #expect(try reader.get("/posters/..%2F..%2Fetc").status == 404)
        // A fresh detail page shows it too, and the API names it.
        #expect(try LiveClient(port: server.port).get("/movies/1").text.contains("/posters/\(key)"))
        #expect(try reader.get("/api/movies/1").text.contains("/posters/\(key)"))
        // Kept by the store, the upload itself is discarded: its room in the quota is free again.
        #expect(location == "/uploads/\(key)")
        #expect(
            eventually {
                (try? client.request("HEAD", location, headers: ["Tus-Resumable": "1.0.0"]))?.status == 404
            })
        // A second poster replaces the first: the first's bytes are no longer served.
        let second = try client.request(
            "POST", "/uploads",
            headers: [
                "Tus-Resumable": "1.0.0", "Upload-Length": String(Self.png.count),
                "Upload-Metadata": Self.metadata(edit, filename: "heat-2.png"),
                "Content-Type": "application/offset+octet-stream",
            ], body: Self.png)
        #expect(second.status == 201)
        let secondKey = String(try #require(second.header("Location")).dropFirst("/uploads/".count))
        #expect(eventually { (try? reader.get("/api/movies/1").text.contains("/posters/\(secondKey)")) == true })
        #expect(try reader.get("/posters/" + key).status == 404)
        #expect(try reader.get("/posters/" + secondKey).body == Self.png)
        let kept = secondKey

        // The store kept it: a restart on the same database serves the same bytes.
        server.stop()
        let again = try startServer(databaseIn: folder)
        defer { again.stop() }
        #expect(try LiveClient(port: again.port).get("/posters/" + kept).body == Self.png)
    }

    /// Without JavaScript, Save posts the form as `multipart/form-data` with the poster: the file becomes the poster,
    /// the other fields are saved, and the answer is `303` to the movie.
    @Test func saveWithoutJavaScriptPostsThePosterWithTheOtherFields() throws {
        let folder = try TemporaryFolder()
        let server = try startServer(databaseIn: folder)
        defer { server.stop() }
        let client = LiveClient(port: server.port)
        let form = LivePage(try client.get("/signin?next=/movies/1/edit"))
        _ = try client.post(
            try #require(form.actionPath("signIn")),
            form: ["csrf": try #require(form.csrfToken), "name": "alice", "password": "screenplay-alice"])
        let edit = LivePage(try client.get("/movies/1/edit"))
        #expect(edit.html.contains("enctype=\"multipart/form-data\""))
        let movie = try #require(
            try JSONSerialization.jsonObject(with: Data(client.get("/api/movies/1").body)) as? [String: Any])
        let fields: [(String, String)] = [
            ("csrf", edit.csrfToken ?? ""), ("title", "Heat, Redux"), ("year", "\(movie["year"] ?? "")"),
            ("runtime", "\(movie["runtimeMinutes"] ?? "")"), ("rating", "\(movie["rating"] ?? "")"),
            ("genres", ((movie["genres"] as? [String]) ?? []).joined(separator: ", ")),
            ("overview", "\(movie["overview"] ?? "")"),
        ]
        var body: [UInt8] = []
        for (name, value) in fields {
            body += Array("--B0und\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        body +=
            Array(
                "--B0und\r\nContent-Disposition: form-data; name=\"poster\"; filename=\"heat.png\"\r\nContent-Type: image/png\r\n\r\n"
                    .utf8) + Self.png + Array("\r\n--B0und--\r\n".utf8)
        let answer = try client.request(
            "POST", try #require(edit.actionPath("save")),
            headers: ["Content-Type": "multipart/form-data; boundary=B0und"], body: body)
        #expect(answer.status == 303)
        #expect(answer.header("Location") == "/movies/1")
        let saved = try client.get("/api/movies/1").text
        #expect(saved.contains("Heat, Redux"))
        let detail = try client.get("/movies/1").text
        let key = try #require(detail.range(of: "/posters/").map { String(detail[$0.upperBound...].prefix(22)) })
        #expect(try client.get("/posters/" + key).body == Self.png)
    }

    @Test func aPosterThatIsNotAnImageIsRefusedAndTheMovieKeepsItsPoster() throws {
        let folder = try TemporaryFolder()
        let server = try startServer(databaseIn: folder)
        defer { server.stop() }
        let client = LiveClient(port: server.port)
        let form = LivePage(try client.get("/signin?next=/movies/1/edit"))
        _ = try client.post(
            try #require(form.actionPath("signIn")),
            form: ["csrf": try #require(form.csrfToken), "name": "alice", "password": "screenplay-alice"])
        let edit = LivePage(try client.get("/movies/1/edit"))
        let text = Array("not an image, whatever its name says".utf8)
        let created = try client.request(
            "POST", "/uploads",
            headers: [
                "Tus-Resumable": "1.0.0", "Upload-Length": String(text.count),
                "Upload-Metadata": Self.metadata(edit, filename: "notes.png"),
                "Content-Type": "application/offset+octet-stream",
            ], body: text)
        #expect(created.status == 415)
        #expect(created.text.contains("notes.png is not one"))
        #expect(try client.get("/api/movies/1").text.contains("/public/posters/1.svg"))
    }
}
