import Foundation
import Primitives
import Screenplay
import ScreenplayTesting
import TestSupport
import Testing

/// `connectInstances(through:)`: two instances of one app, in one process, on an in-memory bus. An upload whose
/// requests reach the instance that does not hold its screen is taken there and its events reach the screen where it
/// lives; without a messenger that instance builds a screen of its own, which the page never sees.
@Suite struct InstanceMessengerTests {
    /// Delivers each instance's messages to the receiver it started, at once.
    final class MemoryBus: Sendable {
        let receivers = Locked<[String: @Sendable (String) -> Void]>([:])
        let sent = Locked<[String]>([])
    }

    struct MemoryMessenger: InstanceMessenger {
        let bus: MemoryBus

        func start(instance: String, receive: @escaping @Sendable (String) -> Void) throws {
            bus.receivers.withLock { $0[instance] = receive }
        }

        func send(_ message: String, to instance: String) {
            bus.sent.withLock { $0.append(instance) }
            bus.receivers.withLock { $0[instance] }?(message)
        }

        func stop() {}
    }

    /// An avatar app named `name`, signing pages with a key every instance shares, keeping uploads in `storage` (one
    /// every instance shares, as a database would be).
    final class Instance: Sendable {
        let application: Application
        let log = AvatarLog()

        init(_ name: String, storage: FileUploadStorage, bus: MemoryBus?) throws {
            var server = ServerConfiguration()
            server.port = 0
            var sessions = SessionConfiguration()
            sessions.instanceName = name
            sessions.tokenSecret = String(repeating: "k", count: 40)
            application = try Application(root: fixtureRoot + "/Forms", server: server, sessions: sessions)
            let log = log
            try application.screen("/avatar", AvatarViewController.self) { _ in log.make() }
            try application.acceptUploads(
                UploadConfiguration(folder: "unused", accepts: ["avatar": [.png]]), storage: storage)
            if let bus { try application.connectInstances(through: MemoryMessenger(bus: bus)) }
            try application.start()
        }

        var events: [String] { log.events.withLock { $0 } }
    }

    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<30_000).map { UInt8($0 % 249) }

    /// Opens the avatar page on `a`, live on a stream there, and uploads the PNG through `b` from the same browser.
    private static func uploadThroughTheOther(_ a: Instance, _ b: Instance) throws -> (status: Int, screen: String) {
        let browser = LiveClient(port: 0)
        let onA = LiveClient(port: a.application.port, sameBrowserAs: browser)
        let page = LivePage(try onA.get("/avatar"))
        let stream = try onA.openSharedStream()
        defer { stream.close() }
        #expect(try onA.attach(page, to: stream.id).status == 204)
        let screen = try #require(page.sessionID)
        let metadata = [
            ("screen", screen), ("csrf", page.csrfToken ?? ""), ("field", "avatar"), ("filename", "me.png"),
            ("filetype", "image/png"),
        ].map { "\($0.0) \(Data($0.1.utf8).base64EncodedString())" }.joined(separator: ",")
        let created = try LiveClient(port: b.application.port, sameBrowserAs: browser).request(
            "POST", "/uploads",
            headers: [
                "Tus-Resumable": "1.0.0", "Upload-Length": String(png.count), "Upload-Metadata": metadata,
                "Content-Type": "application/offset+octet-stream",
            ], body: png)
        return (created.status, screen)
    }

    @Test func anUploadTakenByAnotherInstanceIsToldToItsScreenWhereItLives() throws {
        let folder = NSTemporaryDirectory() + "/instances-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let bus = MemoryBus()
        let storage = try FileUploadStorage(folder: folder)
        let a = try Instance("a", storage: storage, bus: bus)
        let b = try Instance("b", storage: storage, bus: bus)
        defer {
            a.application.stop()
            b.application.stop()
        }
        let (status, screen) = try Self.uploadThroughTheOther(a, b)
        #expect(status == 201)
        #expect(screen.hasPrefix("a."))
        #expect(eventually { a.events.last == "finished me.png 30008" })
        #expect(a.events == ["started me.png 0/30008", "finished me.png 30008"])
        let keptTheBytes = a.log.files.withLock { $0 == [Self.png] }
        #expect(keptTheBytes)
        #expect(b.events.isEmpty)
        #expect(bus.sent.withLock { $0 } == ["a", "a"])
    }

    @Test func withoutAMessengerTheOtherInstanceBuildsAScreenThePageNeverSees() throws {
        let folder = NSTemporaryDirectory() + "/instances-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let storage = try FileUploadStorage(folder: folder)
        let a = try Instance("a", storage: storage, bus: nil)
        let b = try Instance("b", storage: storage, bus: nil)
        defer {
            a.application.stop()
            b.application.stop()
        }
        #expect(try Self.uploadThroughTheOther(a, b).status == 201)
        #expect(eventually { b.events.last == "finished me.png 30008" })
        #expect(a.events.isEmpty)
    }

    @Test func connectingNeedsAnInstanceNameAndHappensOnce() throws {
        var server = ServerConfiguration()
        server.port = 0
        let unnamed = try Application(root: fixtureRoot + "/Forms", server: server)
        #expect(throws: ConfigurationError.self) {
            try unnamed.connectInstances(through: MemoryMessenger(bus: MemoryBus()))
        }
        var sessions = SessionConfiguration()
        sessions.instanceName = "a"
        let named = try Application(root: fixtureRoot + "/Forms", server: server, sessions: sessions)
        try named.connectInstances(through: MemoryMessenger(bus: MemoryBus()))
        #expect(throws: ConfigurationError.self) {
            try named.connectInstances(through: MemoryMessenger(bus: MemoryBus()))
        }
    }
}
