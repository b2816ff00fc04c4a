import Foundation
import HTTPServer
import Screenplay
import ScreenplayTesting
import Synchronization
import TestSupport
import Testing

/// The tus 1.0.0 endpoint at `/uploads`, over real sockets: the happy path, every refusal, a dropped connection, a
/// restart, and path tricks.
@Suite struct TusUploadTests {
    /// A counter app taking uploads into a fresh folder; `finished` collects the uploads that completed.
    final class UploadApp: Sendable {
        let app: TestApp
        let folder: String
        let finishedUploads = FinishedUploads()
        var finished: [UploadInfo] { finishedUploads.list.withLock { $0 } }

        init(
            folder: String? = nil, maxSize: Int = 1 << 20, quota: Int = 4 << 20,
            accepts: [String: Set<FileKind>] = [:], maxConcurrentWrites: Int = 64,
            lifetime: Duration = .seconds(24 * 3600)
        ) throws {
            app = try TestApp(start: false)
            self.folder = folder ?? NSTemporaryDirectory() + "/tus-" + UUID().uuidString
            try app.application.acceptUploads(
                UploadConfiguration(
                    folder: self.folder, maxSize: maxSize, quota: quota, lifetime: lifetime, accepts: accepts,
                    maxConcurrentWrites: maxConcurrentWrites)
            ) { [finishedUploads] info in finishedUploads.list.withLock { $0.append(info) } }
            try app.application.start()
        }

        func stop() { app.application.stop() }
        func removeFolder() { try? FileManager.default.removeItem(atPath: folder) }

        var client: LiveClient { app.client }

        /// `Upload-Metadata` naming `page`'s screen and token, plus `extra`.
        static func metadata(_ page: LivePage, _ extra: [String: String] = [:]) -> String {
            var pairs = ["screen": page.sessionID ?? "", "csrf": page.csrfToken ?? "", "filename": "poster.png"]
            pairs.merge(extra) { $1 }
            return pairs.sorted { $0.key < $1.key }.map { "\($0.key) \(Data($0.value.utf8).base64EncodedString())" }
                .joined(separator: ",")
        }

        /// Creates an upload of `length` bytes from `page`; its path.
        func create(_ page: LivePage, length: Int) throws -> String {
            let response = try client.request(
                "POST", "/uploads",
                headers: [
                    "Tus-Resumable": "1.0.0", "Upload-Length": String(length),
                    "Upload-Metadata": Self.metadata(page),
                ])
            #expect(response.status == 201)
            #expect(response.header("Tus-Resumable") == "1.0.0")
            #expect(response.header("Upload-Expires")?.hasSuffix(" GMT") == true)
            return try #require(response.header("Location"))
        }

        func patch(_ path: String, offset: Int, _ bytes: [UInt8], headers: [String: String] = [:]) throws
            -> LiveResponse
        {
            var all = [
                "Tus-Resumable": "1.0.0", "Upload-Offset": String(offset),
                "Content-Type": "application/offset+octet-stream",
            ]
            all.merge(headers) { $1 }
            return try client.request("PATCH", path, headers: all, body: bytes)
        }

        func head(_ path: String) throws -> LiveResponse {
            try client.request("HEAD", path, headers: ["Tus-Resumable": "1.0.0"])
        }
    }

    final class FinishedUploads: Sendable {
        let list = Mutex<[UploadInfo]>([])
    }

    static func bytes(_ count: Int, seed: UInt8 = 7) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
    }

    /// A page GET keeps no screen: a creation naming a page that is not live yet builds its screen from the page's
    /// token, for the browser the page was rendered for; another browser holding the page's token is refused.
    @Test func aCreationFromAPageNotLiveYetBuildsItsScreenAndAnotherBrowsersIsRefused() throws {
        let uploads = try UploadApp()
        defer {
            uploads.stop()
            uploads.removeFolder()
        }
        let page = try uploads.app.openCounter()
        #expect(uploads.app.application.openSessionCount == 0)
        let other = LiveClient(port: uploads.app.application.port)
        _ = try other.get("/counter")
        let refused = try other.request(
            "POST", "/uploads",
            headers: ["Tus-Resumable": "1.0.0", "Upload-Length": "10", "Upload-Metadata": UploadApp.metadata(page)])
        #expect(refused.status == 403)
        #expect(uploads.app.application.openSessionCount == 0)
        _ = try uploads.create(page, length: 10)
        #expect(uploads.app.application.sessions.session(id: page.sessionID!) != nil)
    }

    /// An upload left unfinished goes once it expires, with no request coming: the application's sweep removes it.
    @Test func anExpiredUploadIsRemovedWithoutAnotherRequest() throws {
        let uploads = try UploadApp(lifetime: .seconds(1))
        defer { uploads.stop(); uploads.removeFolder() }
        let page = try uploads.app.openCounter()
        let path = try uploads.create(page, length: 10)
        #expect(try uploads.patch(path, offset: 0, [1, 2, 3, 4]).status == 204)
        let bytes = uploads.folder + "/" + path.dropFirst("/uploads/".count) + ".bin"
        #expect(FileManager.default.fileExists(atPath: bytes))
        #expect(eventually(within: 20) { !FileManager.default.fileExists(atPath: bytes) })
        #expect(try uploads.head(path).status == 404)
    }

    @Test func optionsAnnouncesTheProtocolAndItsLimit() throws {
        let uploads = try UploadApp()
        defer { uploads.stop(); uploads.removeFolder() }
        let response = try uploads.client.request("OPTIONS", "/uploads")
        #expect(response.status == 204)
        #expect(response.header("Tus-Resumable") == "1.0.0")
        #expect(response.header("Tus-Version") == "1.0.0")
        let extensions = Set((response.header("Tus-Extension") ?? "").split(separator: ","))
        #expect(extensions.isSuperset(of: ["creation", "creation-with-upload", "termination", "expiration"]))
        #expect(response.header("Tus-Max-Size") == String(1 << 20))
    }

    @Test func anUploadInTwoPiecesIsStoredByteForByteThenTerminated() throws {
        let uploads = try UploadApp()
        defer { uploads.stop(); uploads.removeFolder() }
        let page = try uploads.app.openCounter()
        let content = Self.bytes(300_000)
        let path = try uploads.create(page, length: content.count)
        #expect(path.hasPrefix("/uploads/") && path.count == "/uploads/".count + 22)
        #expect(try uploads.head(path).header("Upload-Offset") == "0")

        let first = try uploads.patch(path, offset: 0, Array(content[..<100_000]))
        #expect(first.status == 204)
        #expect(first.header("Upload-Offset") == "100000")
        #expect(first.header("Tus-Resumable") == "1.0.0")
        #expect(first.header("Upload-Expires") != nil)
        let middle = try uploads.head(path)
        #expect(middle.status == 200)
        #expect(middle.header("Upload-Offset") == "100000")
        #expect(middle.header("Upload-Length") == "300000")
        #expect(middle.header("Cache-Control") == "no-store")
        // The token opened the door and is not kept; the rest of the metadata is.
        let metadata = middle.header("Upload-Metadata") ?? ""
        #expect(metadata.contains("filename cG9zdGVyLnBuZw=="))
        #expect(!metadata.contains("csrf"))

        let second = try uploads.patch(path, offset: 100_000, Array(content[100_000...]))
        #expect(second.status == 204)
        #expect(second.header("Upload-Offset") == "300000")
        // An empty PATCH to the finished upload changes nothing and finishes nothing again.
        let empty = try uploads.patch(path, offset: 300_000, [])
        #expect(empty.status == 204)
        #expect(empty.header("Upload-Offset") == "300000")
        #expect(uploads.finished.count == 1)
        let done = try #require(uploads.finished.first)
        #expect(done.length == 300_000 && done.offset == 300_000)
        #expect(done.metadata["screen"] == page.sessionID)
        let storage = try FileUploadStorage(folder: uploads.folder)
        #expect(try storage.contents(id: done.id) == content)

        let terminated = try uploads.client.request("DELETE", path, headers: ["Tus-Resumable": "1.0.0"])
        #expect(terminated.status == 204)
        #expect(terminated.header("Tus-Resumable") == "1.0.0")
        #expect(try uploads.head(path).status == 404)
        #expect(try uploads.patch(path, offset: 300_000, [1]).status == 404)
    }

    @Test func creationWithUploadStoresTheFirstBytes() throws {
        let uploads = try UploadApp()
        defer { uploads.stop(); uploads.removeFolder() }
        let page = try uploads.app.openCounter()
        let content = Self.bytes(5000)
        let response = try uploads.client.request(
            "POST", "/uploads",
            headers: [
                "Tus-Resumable": "1.0.0", "Upload-Length": "8000", "Upload-Metadata": UploadApp.metadata(page),
                "Content-Type": "application/offset+octet-stream",
            ], body: content)
        #expect(response.status == 201)
        #expect(response.header("Upload-Offset") == "5000")
        let path = try #require(response.header("Location"))
        #expect(try uploads.head(path).header("Upload-Offset") == "5000")
    }

    @Test func everyRequestWithoutTusResumableIs412() throws {
        let uploads = try UploadApp()
        defer { uploads.stop(); uploads.removeFolder() }
        let page = try uploads.app.openCounter()
        let path = try uploads.create(page, length: 10)
        let requests: [(String, String, [String: String])] = [
            ("POST", "/uploads", ["Upload-Length": "10", "Upload-Metadata": UploadApp.metadata(page)]),
            ("HEAD", path, [:]),
            ("PATCH", path, ["Upload-Offset": "0", "Content-Type": "application/offset+octet-stream"]),
            ("DELETE", path, [:]),
            (
                "PATCH", path,
                ["Tus-Resumable": "0.2.2", "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream"]
            ),
        ]
        for (method, target, headers) in requests {
            let response = try uploads.client.request(
                method, target, headers: headers, body: method == "PATCH" ? [1, 2] : [])
            #expect(response.status == 412, "\(method) \(target)")
            #expect(response.header("Tus-Resumable") == "1.0.0")
            #expect(response.header("Tus-Version") == "1.0.0")
        }
        #expect(try uploads.head(path).header("Upload-Offset") == "0")
    }

    @Test func anUploadLengthOverTheMaximumIs413BeforeAnyBodyIsRead() throws {
        let uploads = try UploadApp()
        defer { uploads.stop(); uploads.removeFolder() }
        let page = try uploads.app.openCounter()
        // The headers announce a body that is never sent: the answer comes without it.
        let connection = try LiveConnection(port: uploads.app.application.port)
        defer { connection.close() }
        let head =
            "POST /uploads HTTP/1.1\r\nHost: 127.0.0.1\r\nTus-Resumable: 1.0.0\r\n"
            + "Upload-Length: \((1 << 20) + 1)\r\nUpload-Metadata: \(UploadApp.metadata(page))\r\n"
            + "Content-Type: application/offset+octet-stream\r\nContent-Length: \((1 << 20) + 1)\r\n\r\n"
        try connection.send(head)
        let response = try connection.readResponse()
        #expect(response.status == 413)
        #expect(response.header("Tus-Resumable") == "1.0.0")
        // A PATCH whose Content-Length goes past the upload's length, likewise.
        let path = try uploads.create(page, length: 100)
        let patch = try LiveConnection(port: uploads.app.application.port)
        defer { patch.close() }
        try patch.send(
            "PATCH \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nTus-Resumable: 1.0.0\r\nUpload-Offset: 0\r\n"
                + "Content-Type: application/offset+octet-stream\r\nContent-Length: 500000\r\n\r\n")
        #expect(try patch.readResponse().status == 413)
        #expect(try uploads.head(path).header("Upload-Offset") == "0")
    }

    @Test func aChunkedBodyPastTheLengthIsRefusedAndKeepsWhatFitted() throws {
        let uploads = try UploadApp()
        defer { uploads.stop(); uploads.removeFolder() }
        let page = try uploads.app.openCounter()
        let path = try uploads.create(page, length: 100)
        let connection = try LiveConnection(port: uploads.app.application.port)
        defer { connection.close() }
        let chunk = Self.bytes(300)
        try connection.send(
            Array(
                ("PATCH \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nTus-Resumable: 1.0.0\r\nUpload-Offset: 0\r\n"
                    + "Content-Type: application/offset+octet-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "12c\r\n").utf8) + chunk + Array("\r\n0\r\n\r\n".utf8))
        let response = try connection.readResponse()
        #expect(response.status == 413)
        #expect(response.header("Upload-Offset") == "0")
        #expect(try uploads.head(path).header("Upload-Offset") == "0")
    }

    @Test func aWrongOffsetIs409() throws {
        let uploads = try UploadApp()
        defer { uploads.stop(); uploads.removeFolder() }
        let page = try uploads.app.openCounter()
        let path = try uploads.create(page, length: 100)
        #expect(try uploads.patch(path, offset: 0, Self.bytes(10)).status == 204)
        for offset in [0, 5, 11, 100] {
            let response = try uploads.patch(path, offset: offset, Self.bytes(10))
            #expect(response.status == 409)
            #expect(response.header("Upload-Offset") == "10")
        }
        #expect(try uploads.head(path).header("Upload-Offset") == "10")
    }

    @Test(arguments: [nil, "application/octet-stream", "text/plain", "multipart/form-data; boundary=x"])
    func aWrongContentTypeIs415(type: String?) throws {
        let uploads = try UploadApp()
        defer { uploads.stop(); uploads.removeFolder() }
        let page = try uploads.app.openCounter()
        let path = try uploads.create(page, length: 100)
        var headers = ["Tus-Resumable": "1.0.0", "Upload-Offset": "0"]
        headers["Content-Type"] = type
        let response = try uploads.client.request("PATCH", path, headers: headers, body: Self.bytes(10))
        #expect(response.status == 415)
        #expect(try uploads.head(path).header("Upload-Offset") == "0")
        // Creation with upload, likewise.
        var create = [
            "Tus-Resumable": "1.0.0", "Upload-Length": "100", "Upload-Metadata": UploadApp.metadata(page),
        ]
        create["Content-Type"] = type
        #expect(try uploads.client.request("POST", "/uploads", headers: create, body: Self.bytes(10)).status == 415)
    }

    @Test(arguments: [
        "/uploads/AAAAAAAAAAAAAAAAAAAAAA", "/uploads/..%2F..%2Fetc%2Fpasswd", "/uploads/%2e%2e",
        "/uploads/x", "/uploads/AAAAAAAAAAAAAAAAAAAAAA.info", "/uploads/..", "/uploads/%00AAAAAAAAAAAAAAAAAAAAA",
    ])
    func anUnknownUploadIs404(path: String) throws {
        let uploads = try UploadApp()
        defer { uploads.stop(); uploads.removeFolder() }
        #expect(try uploads.head(path).status == 404)
        #expect(try uploads.patch(path, offset: 0, [1]).status == 404)
        #expect(try uploads.client.request("DELETE", path, headers: ["Tus-Resumable": "1.0.0"]).status == 404)
    }

    @Test func aCreationWithoutItsScreensTokenIs403() throws {
        let uploads = try UploadApp()
        defer { uploads.stop(); uploads.removeFolder() }
        let page = try uploads.app.openCounter()
        let other = try uploads.app.openCounter()
        let metadatas = [
            "", "filename cG9zdGVyLnBuZw==",
            UploadApp.metadata(page, ["csrf": ""]), UploadApp.metadata(page, ["csrf": other.csrfToken ?? ""]),
            UploadApp.metadata(page, ["csrf": page.sessionID ?? ""]),
            UploadApp.metadata(page, ["screen": "AAAAAAAAAAAAAAAAAAAAAA"]),
            UploadApp.metadata(page, ["screen": other.sessionID ?? "", "csrf": page.csrfToken ?? ""]),
        ]
        for metadata in metadatas {
            let response = try uploads.client.request(
                "POST", "/uploads",
                headers: ["Tus-Resumable": "1.0.0", "Upload-Length": "10", "Upload-Metadata": metadata])
            #expect(response.status == 403, "\(metadata)")
            #expect(response.header("Location") == nil)
        }
        // Another origin, with a valid token.
        let crossOrigin = try uploads.client.request(
            "POST", "/uploads",
            headers: [
                "Tus-Resumable": "1.0.0", "Upload-Length": "10", "Upload-Metadata": UploadApp.metadata(page),
                "Origin": "http://evil.example",
            ])
        #expect(crossOrigin.status == 403)
        #expect((try? FileManager.default.contentsOfDirectory(atPath: uploads.folder))?.isEmpty == true)
    }

    @Test(arguments: ["-1", "1e3", "0x10", "1 0", "99999999999999999999", "", "+5", "10,10"])
    func aMalformedUploadLengthIs400(length: String) throws {
        let uploads = try UploadApp()
        defer { uploads.stop(); uploads.removeFolder() }
        let page = try uploads.app.openCounter()
        let response = try uploads.client.request(
            "POST", "/uploads",
            headers: ["Tus-Resumable": "1.0.0", "Upload-Length": length, "Upload-Metadata": UploadApp.metadata(page)])
        #expect(response.status == 400)
        #expect(response.header("Tus-Resumable") == "1.0.0")
    }

    @Test(arguments: ["screen", "a b c", "key !!!", "k dGV4dA==,k dGV4dA==", ",", "k /w=="])
    func malformedMetadataIs400(metadata: String) throws {
        let uploads = try UploadApp()
        defer { uploads.stop(); uploads.removeFolder() }
        let response = try uploads.client.request(
            "POST", "/uploads", headers: ["Tus-Resumable": "1.0.0", "Upload-Length": "10", "Upload-Metadata": metadata])
        #expect(response.status == 400 || response.status == 403)
    }

    @Test func creationsPastTheQuotaAre507() throws {
        let uploads = try UploadApp(maxSize: 1 << 20, quota: 2 << 20)
        defer { uploads.stop(); uploads.removeFolder() }
        let page = try uploads.app.openCounter()
        _ = try uploads.create(page, length: 1 << 20)
        _ = try uploads.create(page, length: 1 << 20)
        let refused = try uploads.client.request(
            "POST", "/uploads",
            headers: ["Tus-Resumable": "1.0.0", "Upload-Length": "1", "Upload-Metadata": UploadApp.metadata(page)])
        #expect(refused.status == 507)
        #expect(refused.header("Tus-Resumable") == "1.0.0")
    }

    @Test func aDroppedConnectionKeepsTheBytesReceivedAndTheUploadResumes() throws {
        let uploads = try UploadApp()
        defer { uploads.stop(); uploads.removeFolder() }
        let page = try uploads.app.openCounter()
        let content = Self.bytes(900_000)
        let path = try uploads.create(page, length: content.count)
        let connection = try LiveConnection(port: uploads.app.application.port)
        try connection.send(
            Array(
                ("PATCH \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nTus-Resumable: 1.0.0\r\nUpload-Offset: 0\r\n"
                    + "Content-Type: application/offset+octet-stream\r\nContent-Length: 900000\r\n\r\n").utf8)
                + content[..<700_000])
        connection.close()
        #expect(eventually { (try? uploads.head(path).header("Upload-Offset")) == "700000" })
        let rest = try uploads.patch(path, offset: 700_000, Array(content[700_000...]))
        #expect(rest.status == 204)
        #expect(rest.header("Upload-Offset") == "900000")
        let id = String(path.dropFirst("/uploads/".count))
        #expect(try FileUploadStorage(folder: uploads.folder).contents(id: id) == content)
    }

    @Test func aNewPatchTakesOverFromARequestWhoseClientWentQuiet() throws {
        let uploads = try UploadApp()
        defer { uploads.stop(); uploads.removeFolder() }
        let page = try uploads.app.openCounter()
        let content = Self.bytes(50_000)
        let path = try uploads.create(page, length: content.count)
        // The first request stays open, its body unfinished: HEAD counts what it received.
        let quiet = try LiveConnection(port: uploads.app.application.port)
        defer { quiet.close() }
        try quiet.send(
            Array(
                ("PATCH \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nTus-Resumable: 1.0.0\r\nUpload-Offset: 0\r\n"
                    + "Content-Type: application/offset+octet-stream\r\nContent-Length: 50000\r\n\r\n").utf8)
                + content[..<12_000])
        #expect(eventually { (try? uploads.head(path).header("Upload-Offset")) == "12000" })
        let rest = try uploads.patch(path, offset: 12_000, Array(content[12_000...]))
        #expect(rest.status == 204)
        #expect(rest.header("Upload-Offset") == "50000")
        // The quiet request's late bytes change nothing.
        try? quiet.send(Array(content[12_000..<13_000]))
        let id = String(path.dropFirst("/uploads/".count))
        #expect(try FileUploadStorage(folder: uploads.folder).contents(id: id) == content)
    }

    @Test func anUploadResumesAfterARestartFromItsAcknowledgedOffset() throws {
        let first = try UploadApp()
        defer { first.removeFolder() }
        let page = try first.app.openCounter()
        let content = Self.bytes(50_000)
        let path = try first.create(page, length: content.count)
        #expect(try first.patch(path, offset: 0, Array(content[..<20_000])).status == 204)
        first.stop()

        let second = try UploadApp(folder: first.folder)
        defer { second.stop() }
        #expect(try second.head(path).header("Upload-Offset") == "20000")
        #expect(try second.patch(path, offset: 20_000, Array(content[20_000...])).status == 204)
        let id = String(path.dropFirst("/uploads/".count))
        #expect(try FileUploadStorage(folder: first.folder).contents(id: id) == content)
        #expect(second.finished.map(\.id) == [id])
    }

    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + bytes(3000)
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + bytes(3000)
    static let webp: [UInt8] = Array("RIFF".utf8) + [0x10, 0, 0, 0] + Array("WEBPVP8 ".utf8) + bytes(3000)

    @Test func fileKindsAreToldFromTheFirstBytesOnly() {
        #expect(FileKind.sniff(Self.png) == .png)
        #expect(FileKind.sniff(Self.jpeg) == .jpeg)
        #expect(FileKind.sniff(Self.webp) == .webp)
        #expect(FileKind.sniff(Array("GIF89a".utf8) + Self.bytes(20)) == nil)
        #expect(FileKind.sniff(Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WAVE".utf8)) == nil)
        #expect(FileKind.sniff(Self.png.prefix(11)) == nil)
        #expect(FileKind.sniff([UInt8]()) == nil)
    }

    @Test func aFieldThatTakesImagesRefusesOtherContentWithAMessageAndDropsTheUpload() throws {
        let uploads = try UploadApp(accepts: ["poster": [.png, .jpeg, .webp]])
        defer { uploads.stop(); uploads.removeFolder() }
        let page = try uploads.app.openCounter()
        func create(_ content: [UInt8], field: String = "poster", name: String = "poster.png") throws -> LiveResponse {
            try uploads.client.request(
                "POST", "/uploads",
                headers: [
                    "Tus-Resumable": "1.0.0", "Upload-Length": String(content.count),
                    "Upload-Metadata": UploadApp.metadata(page, ["field": field, "filename": name]),
                ])
        }
        // An image of each kind passes, whatever its name says.
        for image in [Self.png, Self.jpeg, Self.webp] {
            let path = try #require(try create(image, name: "notes.txt").header("Location"))
            let response = try uploads.patch(path, offset: 0, image)
            #expect(response.status == 204)
            #expect(response.header("Upload-Offset") == String(image.count))
        }
        // A GIF named .png, and text, are refused with what the field takes; nothing of them stays.
        for other in [Array("GIF89a".utf8) + Self.bytes(500), Array("hello, this is text".utf8)] {
            let path = try #require(try create(other).header("Location"))
            let refused = try uploads.patch(path, offset: 0, other)
            #expect(refused.status == 415)
            #expect(refused.header("Tus-Resumable") == "1.0.0")
            #expect(refused.text.contains("Choose a PNG, JPEG or WebP file; poster.png is not one."))
            #expect(try uploads.head(path).status == 404)
        }
        // Too short to be an image: refused at creation.
        #expect(try create([0x89, 0x50]).status == 415)
        // Another field takes anything.
        let text = Array("plain text".utf8) + Self.bytes(100)
        let path = try #require(try create(text, field: "notes").header("Location"))
        #expect(try uploads.patch(path, offset: 0, text).status == 204)
        #expect(uploads.finished.count == 4)
    }

    @Test func bodiesWrittenAtOnceAreBoundedAndTheRestAskedToRetry() throws {
        let uploads = try UploadApp(maxConcurrentWrites: 1)
        defer { uploads.stop(); uploads.removeFolder() }
        let page = try uploads.app.openCounter()
        let first = try uploads.create(page, length: 1000)
        let second = try uploads.create(page, length: 1000)
        let quiet = try LiveConnection(port: uploads.app.application.port)
        try quiet.send(
            Array(
                ("PATCH \(first) HTTP/1.1\r\nHost: 127.0.0.1\r\nTus-Resumable: 1.0.0\r\nUpload-Offset: 0\r\n"
                    + "Content-Type: application/offset+octet-stream\r\nContent-Length: 1000\r\n\r\n").utf8)
                + Self.bytes(100))
        #expect(eventually { (try? uploads.head(first).header("Upload-Offset")) == "100" })
        let refused = try uploads.patch(second, offset: 0, Self.bytes(1000))
        #expect(refused.status == 503)
        #expect(refused.header("Retry-After") == "1")
        #expect(refused.header("Tus-Resumable") == "1.0.0")
        #expect(try uploads.head(second).header("Upload-Offset") == "0")
        // The slot comes back when the first request ends.
        quiet.close()
        #expect(eventually { (try? uploads.patch(second, offset: 0, Self.bytes(1000)))?.status == 204 })
    }

    @Test func uploadIdsAreUnguessable() throws {
        let uploads = try UploadApp()
        defer { uploads.stop(); uploads.removeFolder() }
        let page = try uploads.app.openCounter()
        let paths = try (0..<20).map { _ in try uploads.create(page, length: 1) }
        #expect(Set(paths).count == 20)
        for path in paths { #expect(path.count == "/uploads/".count + 22) }
    }
}
