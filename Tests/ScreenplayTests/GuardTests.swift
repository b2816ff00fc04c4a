import Foundation
import HTTPServer
import Screenplay
import ScreenplayTesting
import TestSupport
import Testing

/// Guards in front of screens (their GET, posts and rebuilds) and of ordinary routes.
@Suite struct GuardTests {
    /// A guard that lets in browsers with the cookie `pass=yes`, and sends the others to `/signin`.
    static let signedIn = Guard { request in
        request.cookies["pass"] == "yes" ? .allow : .redirect(to: "/signin?next=" + request.target)
    }

    private func app() throws -> (Application, CounterFactory) {
        var server = ServerConfiguration()
        server.port = 0
        let application = try Application(root: fixtureRoot, server: server)
        let factory = CounterFactory()
        try application.screen("/counter", CounterViewController.self, guard: Self.signedIn) { factory.make($0) }
        application.router.get("/private", Self.signedIn.protecting { _ in .text("secret") })
        application.router.get("/api", Guard.bearerToken("0123456789abcdef-token").protecting { _ in .text("data") })
        try application.start()
        return (application, factory)
    }

    @Test func aSignedOutBrowserIsSentToSignInAndASignedInOneGetsTheScreen() throws {
        let (application, factory) = try app()
        defer { application.stop() }
        let client = LiveClient(port: application.port)
        let out = try client.get("/counter?x=1")
        #expect(out.status == 303)
        #expect(out.header("Location") == "/signin?next=/counter?x=1")
        #expect(factory.createdRelays.isEmpty)
        #expect(application.openSessionCount == 0)
        let page = LivePage(try client.get("/counter", headers: ["Cookie": "pass=yes"]))
        #expect(page.sessionID != nil)
        #expect(try client.get("/private").status == 303)
        #expect(try client.get("/private", headers: ["Cookie": "pass=yes"]).text == "secret")
    }

    @Test func aScreenStopsTakingPostsOnceItsBrowserIsSignedOut() throws {
        let (application, factory) = try app()
        defer { application.stop() }
        let client = LiveClient(port: application.port)
        let page = LivePage(try client.get("/counter", headers: ["Cookie": "pass=yes"]))
        let path = page.actionPath("increment")!
        #expect(try client.post(path, form: ["csrf": page.csrfToken!], headers: ["Cookie": "pass=yes"]).status == 303)
        #expect(factory.createdRelays.first?.value == 1)
        // Signed out (the cookie gone): the post goes to sign in, nothing runs, the screen ends.
        let plain = try client.post(path, form: ["csrf": page.csrfToken!])
        #expect(plain.status == 303)
        #expect(plain.header("Location")?.hasPrefix("/signin?next=") == true)
        #expect(factory.createdRelays.first?.value == 1)
        #expect(application.openSessionCount == 0)
        let other = LivePage(try client.get("/counter", headers: ["Cookie": "pass=yes"]))
        let script = try client.post(
            other.actionPath("increment")!, form: ["csrf": other.csrfToken!], headers: ["X-Requested-With": "fetch"])
        #expect(script.status == 204)
        #expect(script.header("Screenplay-Navigate")?.hasPrefix("/signin?next=") == true)
        // The guard answered before the page's screen was built: no live screen for a browser it refuses.
        #expect(factory.createdRelays.count == 1)
    }

    @Test func aBearerTokenGuardRefusesWithAChallenge() throws {
        let (application, _) = try app()
        defer { application.stop() }
        let client = LiveClient(port: application.port)
        let missing = try client.get("/api")
        #expect(missing.status == 401)
        #expect(missing.header("WWW-Authenticate") == "Bearer")
        #expect(try client.get("/api", headers: ["Authorization": "Bearer wrong"]).status == 401)
        #expect(try client.get("/api", headers: ["Authorization": "0123456789abcdef-token"]).status == 401)
        let allowed = try client.get("/api", headers: ["Authorization": "Bearer 0123456789abcdef-token"])
        #expect(allowed.status == 200)
        #expect(allowed.text == "data")
    }
}
