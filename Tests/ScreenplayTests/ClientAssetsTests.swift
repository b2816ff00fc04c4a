import Foundation
import HTTPServer
import Screenplay
import ScreenplayTesting
import TestSupport
import Testing

/// The framework serves its own client: at a versioned path, cached for long, linked by the page shell itself.
@Suite struct ClientAssetsTests {
    @Test func thePageLinksTheClientAtAVersionedPathServedWithLongCachingAndAnETag() throws {
        let app = try TestApp()
        defer { app.application.stop() }
        let page = try app.openCounter()
        let version = try #require(page.attribute("data-client"))
        #expect(version.hasPrefix("2-"))
        let script = "/screenplay/\(version)/screenplay.js"
        // First in <head>, so the app's own stylesheets override the framework's.
        #expect(
            page.html.contains(
                "<head><link rel=\"stylesheet\" href=\"/screenplay/\(version)/screenplay.css\"><script type=\"module\" src=\"\(script)\"></script><meta charset"
            ))
        let response = try app.client.get(script)
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "text/javascript; charset=utf-8")
        #expect(response.header("Cache-Control") == "public, max-age=31536000, immutable")
        #expect(response.text.contains("wire"))
        let etag = try #require(response.header("ETag"))
        #expect(etag == "\"\(version)\"")
        let again = try app.client.get(script, headers: ["If-None-Match": etag])
        #expect(again.status == 304)
        #expect(again.text.isEmpty)
        // Every module the entry imports is served beside it, as JavaScript; the client's tests are not.
        let modules = [
            "screenplay-worker.js", "wire.js", "stream.js", "patch.js", "fields.js", "actions.js", "tabs.js",
            "subscription.js", "connection.js", "controls.js", "announce.js", "development.js", "navigation.js",
            "snapshot.js", "links.js", "table.js", "dialog.js",
        ]
        for file in modules {
            let module = try app.client.get("/screenplay/\(version)/\(file)")
            #expect(module.status == 200, "\(file)")
            #expect(module.header("Content-Type") == "text/javascript; charset=utf-8", "\(file)")
            #expect(module.header("Cache-Control") == "public, max-age=31536000, immutable", "\(file)")
        }
        // The entry's imports are relative, so they resolve under the same version.
        #expect(response.text.contains("from \"./wire.js\""))
        #expect(try app.client.get("/screenplay/\(version)/screenplay.css").status == 200)
        #expect(try app.client.get("/screenplay/\(version)/stream.test.js").status == 404)
        // A page from before a deploy asks for its old version: it gets the current client, not cached for long.
        let old = try app.client.get("/screenplay/2-0/screenplay.js")
        #expect(old.status == 200)
        #expect(old.header("Cache-Control") == "no-cache")
        #expect(try app.client.get("/screenplay/\(version)/other.js").status == 404)
        #expect(try app.client.get("/screenplay/\(version)/..%2Flayout.html").status == 404)
    }

    /// The build embeds the client's folder in the module's code, and `ClientAssets.files` names each file: a file
    /// added to the folder and not named would be missing from every page.
    @Test func everyFileOfTheClientFolderIsServedAsItIsOnDisk() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/Screenplay/Client").standardized.path
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter {
            $0.hasSuffix(".js") || $0.hasSuffix(".css")
        }
        #expect(names.count >= 20)
        let app = try TestApp()
        defer { app.application.stop() }
        let version = try #require(try app.openCounter().attribute("data-client"))
        for name in names.sorted() {
            let onDisk = try #require(FileManager.default.contents(atPath: folder + "/" + name))
            let served = try app.client.get("/screenplay/\(version)/\(name)")
            #expect(served.status == 200, "\(name) is not served: name it in ClientAssets.files")
            #expect(Array(served.body) == Array(onDisk), "\(name)")
        }
    }

    @Test func theSharedStreamNamesTheClientVersionSoAnOlderPageReloads() throws {
        let app = try TestApp()
        defer { app.application.stop() }
        let page = try app.openCounter()
        let events = try app.client.openEvents("/streams")
        defer { events.close() }
        let greeting = try #require(try events.next())
        #expect(greeting.event == "stream")
        #expect(greeting.data.contains("\"client\":\"\(page.attribute("data-client")!)\""))
    }

    @Test func anAppWithoutALayoutGetsTheBuiltInOne() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("layoutless-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("Templates"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(
            "<section class=\"counter\"><p data-outlet=\"countLabel\">0</p><button data-outlet=\"incrementButton\" data-action=\"increment\">Add</button><button data-outlet=\"burstButton\" data-action=\"burst\">Burst</button><button data-outlet=\"leaveButton\" data-action=\"leave\">Leave</button></section>"
                .utf8
        ).write(to: folder.appendingPathComponent("Templates/Counter.html"))
        var server = ServerConfiguration()
        server.port = 0
        let application = try Application(root: folder.path, server: server)
        let factory = CounterFactory()
        try application.screen("/counter", CounterViewController.self) { factory.make($0) }
        try application.start()
        defer { application.stop() }
        let page = try LiveClient(port: application.port).get("/counter")
        #expect(page.status == 200)
        #expect(page.text.contains("<main id=") && page.text.contains(">0</p>"))
        #expect(page.text.contains("/screenplay.js\"></script>"))
    }
}
