import Foundation
import HTTPServer
import Screenplay
import ScreenplayTesting
import Synchronization
import TestSupport
import Testing

/// `rx.file`: a file field's binder sees what happens to the uploads that name its screen and field, driven by the
/// tus endpoint over real sockets: started, progress, finished with the stored file, failed with a message.
@Suite struct FileFieldEventsTests {
    /// The avatar screen at `/avatar`, taking uploads into a fresh folder; the `avatar` field accepts PNG only.
    final class AvatarApp: Sendable {
        let application: Application
        let log = AvatarLog()
        let folder = NSTemporaryDirectory() + "/file-field-" + UUID().uuidString
        private let browser = LiveClient(port: 0)
        var client: LiveClient { LiveClient(port: application.port, sameBrowserAs: browser) }

        init(quota: Int = 1 << 30) throws {
            var server = ServerConfiguration()
            server.port = 0
            application = try Application(root: fixtureRoot + "/Forms", server: server)
            let log = log
            try application.screen("/avatar", AvatarViewController.self) { _ in log.make() }
            try application.acceptUploads(
                UploadConfiguration(folder: folder, maxSize: 1 << 20, quota: quota, accepts: ["avatar": [.png]]))
            try application.start()
        }

        func stop() {
            application.stop()
            try? FileManager.default.removeItem(atPath: folder)
        }

        func open() throws -> LivePage {
            let response = try client.get("/avatar")
            guard response.status == 200 else { throw LiveClientError(description: "GET /avatar: \(response.status)") }
            return LivePage(response)
        }

        func create(_ page: LivePage, field: String = "avatar", filename: String, length: Int) throws -> String {
            let pairs = [
                "screen": page.sessionID ?? "", "csrf": page.csrfToken ?? "", "field": field, "filename": filename,
                "filetype": "image/png",
            ]
            let metadata = pairs.sorted { $0.key < $1.key }.map {
                "\($0.key) \(Data($0.value.utf8).base64EncodedString())"
            }.joined(separator: ",")
            let response = try client.request(
                "POST", "/uploads",
                headers: ["Tus-Resumable": "1.0.0", "Upload-Length": String(length), "Upload-Metadata": metadata])
            guard response.status == 201, let location = response.header("Location") else {
                throw LiveClientError(description: "POST /uploads: \(response.status) \(response.text)")
            }
            return location
        }

        func patch(_ path: String, offset: Int, _ bytes: [UInt8]) throws -> LiveResponse {
            try client.request(
                "PATCH", path,
                headers: [
                    "Tus-Resumable": "1.0.0", "Upload-Offset": String(offset),
                    "Content-Type": "application/offset+octet-stream",
                ], body: bytes)
        }

        /// The live screen's page as it is now.
        func page(_ page: LivePage) throws -> String {
            try client.get(ScreenWireTestPaths.page(page.sessionID ?? "")).text
        }

        var events: [String] { log.events.withLock { $0 } }
    }

    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<199_992).map { UInt8($0 % 251) }

    @Test func theFieldsBinderSeesStartedProgressAndTheFinishedFileByteForByte() throws {
        let app = try AvatarApp()
        defer { app.stop() }
        let page = try app.open()
        #expect(page.html.contains("enctype=\"multipart/form-data\""))
        #expect(page.html.contains("type=\"file\""))
        #expect(page.html.contains("data-upload-url=\"/uploads\""))
        #expect(page.html.contains("data-upload-screen=\"\(page.sessionID ?? "-")\""))
        #expect(page.html.contains("data-upload-screen-key=\"screen\" data-upload-csrf-key=\"csrf\""))

        let path = try app.create(page, filename: "me.png", length: Self.png.count)
        #expect(eventually { app.events == ["started me.png 0/200000"] })
        #expect(try app.patch(path, offset: 0, Array(Self.png[..<50_000])).status == 204)
        #expect(eventually { app.events.last == "progress 50000/200000" })
        let halfway = try app.page(page)
        #expect(halfway.contains("value=\"50000\" max=\"200000\" aria-valuenow=\"50000\""))
        #expect(halfway.contains("Sending me.png…"))

        #expect(try app.patch(path, offset: 50_000, Array(Self.png[50_000...])).status == 204)
        #expect(eventually { app.events.last == "finished me.png 200000" })
        #expect(app.log.files.withLock { $0 } == [Self.png])
        // Progress only moves forward, and each event names this upload.
        let received = app.events.compactMap { line -> Int? in
            guard line.hasPrefix("progress ") else { return nil }
            return Int(line.dropFirst("progress ".count).prefix { $0 != "/" })
        }
        #expect(received == received.sorted())
        let done = try app.page(page)
        #expect(done.contains("Sent me.png."))
        #expect(done.contains("value=\"200000\" max=\"200000\""))
    }

    @Test func aRefusedFileFailsWithAMessageShownAtTheField() throws {
        let app = try AvatarApp()
        defer { app.stop() }
        let page = try app.open()
        let gif = Array("GIF89a".utf8) + [UInt8](repeating: 1, count: 100)
        let path = try app.create(page, filename: "cat.gif", length: gif.count)
        #expect(try app.patch(path, offset: 0, gif).status == 415)
        #expect(eventually { app.events.last?.hasPrefix("failed ") == true })
        #expect(app.events == ["started cat.gif 0/106", "failed Choose a PNG file; cat.gif is not one."])
        let html = try app.page(page)
        #expect(html.contains("aria-invalid=\"true\""))
        #expect(html.contains("class=\"field-error\">Choose a PNG file; cat.gif is not one.</p>"))
        #expect(app.log.files.withLock { $0 }.isEmpty)
    }

    @Test func aTerminatedUploadFailsAndAnotherFieldsUploadIsNotThisFieldsEvent() throws {
        let app = try AvatarApp()
        defer { app.stop() }
        let page = try app.open()
        // An upload naming a field the screen does not have reaches no binder.
        let elsewhere = try app.create(page, field: "banner", filename: "b.png", length: 10)
        #expect(try app.patch(elsewhere, offset: 0, Array(Self.png[..<10])).status == 204)
        let path = try app.create(page, filename: "me.png", length: 100)
        #expect(eventually { app.events == ["started me.png 0/100"] })
        let terminated = try app.client.request("DELETE", path, headers: ["Tus-Resumable": "1.0.0"])
        #expect(terminated.status == 204)
        #expect(eventually { app.events == ["started me.png 0/100", "failed The upload was cancelled."] })
    }
}

/// A form with a file field posted without JavaScript: `multipart/form-data`, streamed, the file stored and told to
/// its field as an upload's would be, then the action, answered `303`.
@Suite struct MultipartFormPostTests {
    typealias AvatarApp = FileFieldEventsTests.AvatarApp

    /// A multipart body of `parts` (name, filename or nil, bytes), in order.
    static func body(_ parts: [(String, String?, [UInt8])], boundary: String = "----Bound4ry") -> [UInt8] {
        var body: [UInt8] = []
        for (name, filename, bytes) in parts {
            var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\""
            if let filename { head += "; filename=\"\(filename)\"\r\nContent-Type: image/png" }
            body += Array((head + "\r\n\r\n").utf8) + bytes + Array("\r\n".utf8)
        }
        return body + Array("--\(boundary)--\r\n".utf8)
    }

    static func post(_ app: AvatarApp, _ page: LivePage, _ body: [UInt8]) throws -> LiveResponse {
        try app.client.request(
            "POST", try #require(page.actionPath("save")),
            headers: ["Content-Type": "multipart/form-data; boundary=----Bound4ry"], body: body)
    }

    @Test func theFileIsStoredAndToldToItsFieldThenTheActionRunsAndAnswers303() throws {
        let app = try AvatarApp()
        defer { app.stop() }
        let page = try app.open()
        let png = FileFieldEventsTests.png
        let answer = try Self.post(
            app, page,
            Self.body([
                ("csrf", nil, Array((page.csrfToken ?? "").utf8)), ("name", nil, Array("Ana \u{e9}".utf8)),
                ("avatar", "me.png", png),
            ]))
        #expect(answer.status == 303)
        // The screen's own URL, the same session (a JS-off post's answer).
        #expect(answer.header("Location") == "/avatar?screen=\(page.sessionID ?? "-")")
        #expect(eventually { app.events.last == "finished me.png 200000" })
        #expect(app.events == ["started me.png 0/200000", "finished me.png 200000"])
        #expect(app.log.files.withLock { $0 } == [png])
        let html = try app.page(page)
        #expect(html.contains("value=\"Ana \u{e9}\""))
        #expect(html.contains("Sent me.png."))
    }

    @Test func aRefusedFileShowsItsMessageAtTheFieldAndTheActionDoesNotRun() throws {
        let app = try AvatarApp()
        defer { app.stop() }
        let page = try app.open()
        let answer = try Self.post(
            app, page,
            Self.body([
                ("csrf", nil, Array((page.csrfToken ?? "").utf8)), ("name", nil, Array("Ana".utf8)),
                ("avatar", "cat.gif", Array("GIF89a-not-a-png".utf8)),
            ]))
        #expect(answer.status == 303)
        #expect(eventually { app.events.last?.hasPrefix("failed") == true })
        let html = try app.page(page)
        #expect(html.contains("aria-invalid=\"true\""))
        #expect(html.contains("Choose a PNG file; cat.gif is not one.</p>"))
        #expect(app.log.files.withLock { $0 }.isEmpty)
    }

    @Test func noFileChosenPostsTheOtherFields() throws {
        let app = try AvatarApp()
        defer { app.stop() }
        let page = try app.open()
        let answer = try Self.post(
            app, page,
            Self.body([
                ("csrf", nil, Array((page.csrfToken ?? "").utf8)), ("name", nil, Array("Bo".utf8)), ("avatar", "", []),
            ]))
        #expect(answer.status == 303)
        #expect(try app.page(page).contains("value=\"Bo\""))
        #expect(app.events.isEmpty)
    }

    @Test func refusalsStoreNothing() throws {
        let app = try AvatarApp()
        defer { app.stop() }
        let page = try app.open()
        let token = Array((page.csrfToken ?? "").utf8)
        let png = FileFieldEventsTests.png
        // A file past the maximum (1 MiB here): 413.
        let large = try Self.post(
            app, page,
            Self.body([("csrf", nil, token), ("avatar", "big.png", png + [UInt8](repeating: 0, count: 1 << 20))]))
        #expect(large.status == 413)
        // The token after the file, a wrong token, none: 403 before a byte of the file is kept.
        for parts in [
            [("avatar", "me.png", png), ("csrf", nil, token)],
            [("csrf", nil, Array("forged".utf8)), ("avatar", "me.png", png)],
            [("avatar", "me.png", png)],
        ] as [[(String, String?, [UInt8])]] {
            #expect(try Self.post(app, page, Self.body(parts)).status == 403)
        }
        // Malformed: no closing boundary.
        var cut = Self.body([("csrf", nil, token), ("name", nil, Array("x".utf8))])
        cut.removeLast(20)
        #expect(try Self.post(app, page, cut).status == 400)
        #expect(app.events.isEmpty)
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: app.folder)) ?? []
        #expect(leftovers.filter { !$0.hasPrefix(".") }.isEmpty, "\(leftovers)")
    }

    /// The bytes the server says form posts' files hold now (`/metrics`).
    static func spooled(_ app: AvatarApp) throws -> Int? {
        let text = try app.client.get("/metrics").text
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("screenplay_upload_spool_bytes ") })
        else { return nil }
        return Int(line.split(separator: " ")[1])
    }

    @Test func filesOfPostsStillArrivingShareTheQuotaAndPastItAPostIsRefused507() throws {
        // A quota of 300,000 bytes: one post's 200,000-byte file fits, a second one beside it does not.
        let app = try AvatarApp(quota: 300_000)
        defer { app.stop() }
        let page = try app.open()
        let token = Array((page.csrfToken ?? "").utf8)
        let parts: [(String, String?, [UInt8])] = [
            ("csrf", nil, token), ("avatar", "me.png", FileFieldEventsTests.png),
        ]
        let body = Self.body(parts)
        // The first post sends all but its last bytes, and waits: its file is held, spooled.
        let held = try LiveConnection(port: app.application.port)
        defer { held.close() }
        let cookie = app.client.storedCookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
        try held.send(
            "POST \(try #require(page.actionPath("save"))) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Content-Type: multipart/form-data; boundary=----Bound4ry\r\nContent-Length: \(body.count)\r\n"
                + "Cookie: \(cookie)\r\n\r\n")
        try held.send(Array(body.dropLast(100)))
        #expect(eventually { ((try? Self.spooled(app)) ?? nil).map { $0 >= 199_000 } == true })
        // A second post's file would pass the quota: 507 with a message, nothing stored, no event, no action.
        let refused = try Self.post(app, page, body)
        #expect(refused.status == 507)
        #expect(refused.text.contains("Files being received fill the room for uploads"))
        #expect(app.events.isEmpty)
        #expect(app.log.files.withLock { $0.count } == 0)
        // The first post goes away: its room is given back, and the same post is taken.
        held.close()
        #expect(eventually { (try? Self.spooled(app)) == 0 })
        let taken = try Self.post(app, page, body)
        #expect(taken.status == 303)
        #expect(eventually { app.events.last == "finished me.png 200000" })
        let keptTheFile = app.log.files.withLock { $0 == [FileFieldEventsTests.png] }
        #expect(keptTheFile)
        #expect(try Self.spooled(app) == 0)
    }

    @Test func aFormWithoutAFileStillPostsURLEncoded() throws {
        let app = try AvatarApp()
        defer { app.stop() }
        let page = try app.open()
        let answer = try app.client.post(
            try #require(page.actionPath("save")), form: ["csrf": page.csrfToken ?? "", "name": "Cy"])
        #expect(answer.status == 303)
        #expect(try app.page(page).contains("value=\"Cy\""))
    }
}

/// The wire's paths the tests build by hand.
enum ScreenWireTestPaths {
    static func page(_ id: String) -> String { "/screens/\(id)" }
}
