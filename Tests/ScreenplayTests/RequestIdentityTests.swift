import Foundation
import HTTPServer
import Screenplay
import ScreenplayTesting
import TestSupport
import Testing

/// Screens know the request: headers, cookies, the client's address, a stable per-browser identity; a factory can
/// set cookies on the first response and answer with a redirect.
@Suite struct RequestIdentityTests {
    @Test func aFactorySeesTheRequestAndSetsCookiesOnThePage() throws {
        let seen = TestMutex<[ScreenRequest]>([])
        let app = try OperationsTestApp(factory: { request in
            seen.withLock { $0.append(request) }
            if request.query["go"] == "away" { throw ScreenRedirect(to: "/counter?from=redirect") }
            request.setCookie(Cookie(name: "visited", value: "yes; and more", maxAge: .seconds(60)))
            return CounterViewController()
        })
        defer { app.stop() }
        let first = try app.client.get("/counter", headers: ["User-Agent": "Test/1.0", "Cookie": "theme=dark"])
        #expect(first.status == 200)
        let setCookies = first.headers.filter { $0.name.lowercased() == "set-cookie" }.map(\.value)
        let browser = try #require(setCookies.first { $0.hasPrefix("screenplay_browser=") })
        #expect(browser.contains("; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax"))
        #expect(!browser.contains("Secure"))
        #expect(setCookies.contains("visited=yes%3B%20and%20more; Path=/; Max-Age=60; HttpOnly; SameSite=Lax"))
        let request = try #require(seen.withLock { $0.first })
        #expect(request.headers["user-agent"] == "Test/1.0")
        #expect(request.cookies["theme"] == "dark")
        #expect(request.remoteAddress == "127.0.0.1")
        #expect(request.browserID.utf8.count == 22)
        let id = String(browser.dropFirst("screenplay_browser=".count).prefix(22))
        #expect(id == request.browserID)

        // The same browser, again: the same identity, and no new cookie for it.
        let second = try app.client.get("/counter", headers: ["Cookie": "screenplay_browser=\(id)"])
        #expect(!second.headers.contains { $0.value.hasPrefix("screenplay_browser=") })
        #expect(seen.withLock { $0.last?.browserID } == id)
        // A forged identity is replaced.
        let forged = try app.client.get("/counter", headers: ["Cookie": "screenplay_browser=<script>"])
        #expect(forged.headers.contains { $0.value.hasPrefix("screenplay_browser=") })
        #expect(seen.withLock { $0.last?.browserID } != "<script>")
        // Behind a TLS proxy the cookies are Secure.
        let secure = try app.client.get("/counter", headers: ["X-Forwarded-Proto": "https"])
        #expect(
            secure.headers.filter { $0.name.lowercased() == "set-cookie" }.allSatisfy { $0.value.hasSuffix("; Secure") }
        )
    }

    @Test func aFactoryCanAnswerWithARedirect() throws {
        let app = try OperationsTestApp(factory: { request in
            if request.query["go"] == "away" { throw ScreenRedirect(to: "/counter?from=redirect") }
            if request.query["go"] == "elsewhere" { throw ScreenRedirect(to: "https://evil.example/") }
            return CounterViewController()
        })
        defer { app.stop() }
        let response = try app.client.get("/counter?go=away")
        #expect(response.status == 303)
        #expect(response.header("Location") == "/counter?from=redirect")
        #expect(app.application.openSessionCount == 0)
        #expect(app.log.events("screen.failed").isEmpty)
        // Only site-relative locations: anything else goes home.
        #expect(try app.client.get("/counter?go=elsewhere").header("Location") == "/")
    }
}
