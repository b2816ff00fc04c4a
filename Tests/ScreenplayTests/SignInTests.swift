import Foundation
import HTTPServer
import Screenplay
import ScreenplayTesting
import TestSupport
import Testing

/// The sign-in: password hashes, the signed cookie, the screens over real sockets, and what it refuses.
@Suite struct SignInTests {
    /// `alice` / `correct horse`, hashed by Python's `hashlib.pbkdf2_hmac` (another implementation than libcrypto's).
    static let aliceHash = "pbkdf2-sha256$1000$c2NyZWVucGxheS1zYWx0IQ==$HCfZ4hLf3YzcRhkTn6Mvt8XZfqW9SsrNtGwLrz82UTg="
    static let secret = "a-secret-of-more-than-thirty-two-characters"

    private func accounts() throws -> Accounts {
        Accounts([
            "alice": try PasswordHash(Self.aliceHash),
            "bob": PasswordHash.make(password: "bobs pass", iterations: 1000),
        ])
    }

    private func app(secret: String = secret) throws -> (Application, SignIn, LiveClient) {
        var server = ServerConfiguration()
        server.port = 0
        let application = try Application(root: fixtureRoot + "/SignIn", server: server)
        let signIn = SignIn(accounts: try accounts(), secret: secret)
        try application.use(signIn)
        let factory = CounterFactory()
        try application.screen("/counter", CounterViewController.self, guard: signIn.required) { factory.make($0) }
        try application.screen("/open", CounterViewController.self) { factory.make($0) }
        try application.start()
        return (application, signIn, LiveClient(port: application.port))
    }

    /// Posts `name` and `password` to the sign-in screen at `url`; the answer, and the page it leads to.
    private func signIn(
        _ client: LiveClient, name: String, password: String, url: String = "/signin?next=/counter",
        headers: [String: String] = [:]
    ) throws -> (answer: LiveResponse, page: LivePage?) {
        let page = LivePage(try client.get(url, headers: headers))
        let answer = try client.post(
            try #require(page.actionPath("signIn")),
            form: ["csrf": try #require(page.csrfToken), "name": name, "password": password], headers: headers)
        // The same screen answers at its own URL naming its session (`?screen=`); anything else is a navigation.
        guard answer.status == 303, let location = answer.header("Location"),
            location.contains("?screen=") || location.contains("&screen=")
        else {
            return (answer, nil)
        }
        return (answer, LivePage(try client.get(location, headers: headers)))
    }

    private func cookie(_ response: LiveResponse) -> String? {
        response.headers.first { $0.name.lowercased() == "set-cookie" && $0.value.hasPrefix(SignIn.cookieName + "=") }?
            .value
    }

    // MARK: Hashes and cookies

    @Test func aHashMadeElsewhereVerifiesItsPasswordOnly() throws {
        let hash = try PasswordHash(Self.aliceHash)
        #expect(hash.iterations == 1000)
        #expect(hash.verifies("correct horse"))
        #expect(!hash.verifies("correct horsE"))
        #expect(!hash.verifies(""))
        #expect(hash.description == Self.aliceHash)
        let made = PasswordHash.make(password: "s3cret", iterations: 1000)
        #expect(try PasswordHash(made.description) == made)
        #expect(made.verifies("s3cret"))
        #expect(PasswordHash.make(password: "s3cret", iterations: 1000).salt != made.salt)
    }

    @Test(arguments: [
        "", "md5$1000$c2FsdHNhbHQ=$AAAA",
        "pbkdf2-sha256$10$c2NyZWVucGxheS1zYWx0IQ==$HCfZ4hLf3YzcRhkTn6Mvt8XZfqW9SsrNtGwLrz82UTg=",
        "pbkdf2-sha256$1000$!!$HCfZ4hLf3YzcRhkTn6Mvt8XZfqW9SsrNtGwLrz82UTg=",
        "pbkdf2-sha256$1000$c2NyZWVucGxheS1zYWx0IQ==$AAAA",
    ])
    func aMalformedHashIsRefused(_ encoded: String) {
        #expect(throws: PasswordHash.FormatError.self) { try PasswordHash(encoded) }
    }

    @Test func anAccountsFileNamesTheLineItCannotRead() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("accounts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = folder.appendingPathComponent("good.txt").path
        try "# demo\n\nalice \(Self.aliceHash)\n".write(toFile: good, atomically: true, encoding: .utf8)
        #expect(try Accounts(contentsOf: good).names == ["alice"])
        let bad = folder.appendingPathComponent("bad.txt").path
        try "alice \(Self.aliceHash)\nbob plain-password\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let error = try #require(throws: ConfigurationError.self) { try Accounts(contentsOf: bad) }
        #expect(error.description.hasPrefix(bad + ":2:"))
        #expect(throws: ConfigurationError.self) {
            try Accounts(contentsOf: folder.appendingPathComponent("none").path)
        }
    }

    @Test func aWrongNameAndAWrongPasswordAreTheSameAnswer() throws {
        let accounts = try accounts()
        #expect(accounts.verify(name: "alice", password: "correct horse"))
        #expect(!accounts.verify(name: "alice", password: "wrong"))
        #expect(!accounts.verify(name: "mallory", password: "correct horse"))
        #expect(!accounts.verify(name: "bob", password: "correct horse"))
    }

    // MARK: Over sockets

    @Test func aSignedOutBrowserSignsInAndComesBackToThePageItAskedFor() throws {
        let (application, _, client) = try app()
        defer { application.stop() }
        let refused = try client.get("/counter?x=1")
        #expect(refused.status == 303)
        #expect(refused.header("Location") == "/signin?next=/counter%3Fx%3D1")
        let form = LivePage(try client.get("/signin?next=/counter%3Fx%3D1"))
        #expect(form.html.contains(#"name="csrf""#))
        #expect(form.html.contains(#"type="password""#))
        let page = LivePage(try client.get("/signin?next=/counter%3Fx%3D1"))
        let answer = try client.post(
            try #require(page.actionPath("signIn")),
            form: ["csrf": try #require(page.csrfToken), "name": "alice", "password": "correct horse"])
        #expect(answer.status == 303)
        #expect(answer.header("Location") == "/counter?x=1")
        let set = try #require(cookie(answer))
        #expect(set.contains("; HttpOnly"))
        #expect(set.contains("; SameSite=Lax"))
        #expect(!set.contains("Secure"))
        let value = String(set.split(separator: ";")[0])
        let screen = try client.get("/counter?x=1", headers: ["Cookie": value])
        #expect(screen.status == 200)
        // Every page says who is signed in.
        #expect(screen.text.contains(#"<b id="#) && screen.text.contains(">alice</b>"))
        // Another browser, without the cookie.
        let open = try LiveClient(port: client.port).get("/open").text
        #expect(open.contains(#"href="/signin">Sign in</a>"#))
        #expect(!open.contains(">alice<"))
    }

    /// The Sign in link of a page leads back to that page: the sign-in screen reads where it was followed from.
    @Test func theSignInLinkComesBackToThePageItWasFollowedFrom() throws {
        let (application, _, client) = try app()
        defer { application.stop() }
        let host = "localhost:\(application.port)"
        let fromPage = ["Referer": "http://\(host)/open?tab=2", "Host": host]
        #expect(
            try signIn(client, name: "alice", password: "correct horse", url: "/signin", headers: fromPage).answer
                .header("Location") == "/open?tab=2")
        let elsewhere = ["Referer": "https://evil.example/open", "Host": host]
        #expect(
            try signIn(client, name: "alice", password: "correct horse", url: "/signin", headers: elsewhere).answer
                .header("Location") == "/")
        // An explicit next wins over the page the link was on.
        #expect(
            try signIn(
                client, name: "alice", password: "correct horse", url: "/signin?next=/counter", headers: fromPage
            )
            .answer.header("Location") == "/counter")
    }

    @Test func aWrongPasswordOrNameSaysSoWithoutSayingWhichAndSetsNoCookie() throws {
        let (application, _, client) = try app()
        defer { application.stop() }
        let wrongPassword = try signIn(client, name: "alice", password: "correct horsE")
        let wrongName = try signIn(client, name: "alicia", password: "correct horse")
        for attempt in [wrongPassword, wrongName] {
            #expect(cookie(attempt.answer) == nil)
            let page = try #require(attempt.page)
            #expect(page.html.contains("That name and password do not match an account."))
            // The password typed is never sent back.
            #expect(!page.html.contains("correct hors"))
        }
        let empty = try signIn(client, name: "alice", password: "")
        #expect(try #require(empty.page).html.contains("Enter your name and your password."))
    }

    @Test func aBurstOfWrongPasswordsIsSlowedDownEvenForTheRightOne() throws {
        let (application, _, client) = try app()
        defer { application.stop() }
        for _ in 0..<5 {
            let attempt = try signIn(client, name: "bob", password: "guess")
            #expect(try #require(attempt.page).html.contains("do not match"))
        }
        let right = try signIn(client, name: "bob", password: "bobs pass")
        #expect(cookie(right.answer) == nil)
        #expect(try #require(right.page).html.contains("Too many attempts. Try again in 1 second."))
        // Another account from the same address waits too: the address made the burst.
        let other = try signIn(client, name: "alice", password: "correct horse")
        #expect(cookie(other.answer) == nil)
        #expect(try #require(other.page).html.contains("Too many attempts"))
        Thread.sleep(forTimeInterval: 1.1)
        let later = try signIn(client, name: "bob", password: "bobs pass")
        #expect(cookie(later.answer) != nil)
    }

    @Test func aForgedAlteredOrOtherSecretsCookieIsSignedOut() throws {
        let (application, _, client) = try app()
        defer { application.stop() }
        let answer = try signIn(client, name: "alice", password: "correct horse").answer
        let value = String(try #require(cookie(answer)).split(separator: ";")[0])
        #expect(try client.get("/counter", headers: ["Cookie": value]).status == 200)
        let parts = value.dropFirst(SignIn.cookieName.count + 1).split(separator: ".").map(String.init)
        let bob = Data("bob".utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
        let forged = [
            "\(bob).\(parts[1]).\(parts[2])",  // another name, the same signature
            "\(parts[0]).\(Int(parts[1])! + 3600).\(parts[2])",  // a later expiry
            "\(parts[0]).\(parts[1]).AAAA\(parts[2].dropFirst(4))",  // the signature changed
            "\(parts[0]).\(parts[1])", "garbage", "",
        ]
        for cookie in forged {
            #expect(try client.get("/counter", headers: ["Cookie": SignIn.cookieName + "=" + cookie]).status == 303)
        }
        // The same cookie under another secret (another deployment) is signed out too.
        let (other, _, otherClient) = try app(secret: "another-secret-of-more-than-thirty-two-chars")
        defer { other.stop() }
        #expect(try otherClient.get("/counter", headers: ["Cookie": value]).status == 303)
    }

    @Test func anExpiredCookieIsSignedOut() throws {
        var server = ServerConfiguration()
        server.port = 0
        let application = try Application(root: fixtureRoot + "/SignIn", server: server)
        // A clock the test moves: no sleeping through the lifetime, so the machine's load cannot move the edges.
        let clock = TestMutex<Double>(1_800_000_000.25)
        let signIn = SignIn(
            accounts: try accounts(), secret: Self.secret, lifetime: .seconds(60), now: { clock.withLock { $0 } })
        try application.use(signIn)
        try application.screen("/counter", CounterViewController.self, guard: signIn.required) {
            CounterFactory().make($0)
        }
        try application.start()
        defer { application.stop() }
        let client = LiveClient(port: application.port)
        let answer = try self.signIn(client, name: "alice", password: "correct horse").answer
        let value = String(try #require(cookie(answer)).split(separator: ";")[0])
        #expect(try #require(cookie(answer)).contains("Max-Age=60"))
        #expect(try client.get("/counter", headers: ["Cookie": value]).status == 200)
        // The last second of the lifetime still signs in; its end signs out.
        clock.withLock { $0 += 59.5 }
        #expect(try client.get("/counter", headers: ["Cookie": value]).status == 200)
        clock.withLock { $0 += 0.25 }
        #expect(try client.get("/counter", headers: ["Cookie": value]).status == 303)
    }

    @Test func theSignInFormRefusesOtherOriginsAndBadTokens() throws {
        let (application, _, client) = try app()
        defer { application.stop() }
        let page = LivePage(try client.get("/signin"))
        let path = try #require(page.actionPath("signIn"))
        let form = ["csrf": try #require(page.csrfToken), "name": "alice", "password": "correct horse"]
        let crossOrigin = try client.post(path, form: form, headers: ["Origin": "https://evil.example"])
        #expect(crossOrigin.status == 403)
        #expect(cookie(crossOrigin) == nil)
        let crossSite = try client.post(path, form: form, headers: ["Sec-Fetch-Site": "cross-site"])
        #expect(crossSite.status == 403)
        var badToken = form
        badToken["csrf"] = "not-the-token-of-this-s"
        let forged = try client.post(path, form: badToken)
        #expect(forged.status == 403)
        #expect(cookie(forged) == nil)
        // The page's own post still signs in afterwards: nothing was changed by the refusals.
        #expect(cookie(try client.post(path, form: form)) != nil)
    }

    @Test(arguments: ["//evil.example/", "/\\evil.example", "https://evil.example/", "/signin", "/signout"])
    func aNextThatLeavesTheSiteGoesHomeInstead(_ next: String) throws {
        let (application, _, client) = try app()
        defer { application.stop() }
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let url = "/signin?next=" + next.addingPercentEncoding(withAllowedCharacters: allowed)!
        let answer = try signIn(client, name: "alice", password: "correct horse", url: url).answer
        #expect(answer.status == 303)
        #expect(answer.header("Location") == "/")
        #expect(cookie(answer) != nil)
    }

    @Test func overTLSTheCookieIsSecure() throws {
        let (application, _, client) = try app()
        defer { application.stop() }
        let answer = try signIn(
            client, name: "alice", password: "correct horse", headers: ["X-Forwarded-Proto": "https"]
        ).answer
        #expect(try #require(cookie(answer)).contains("; Secure"))
    }

    @Test func signingOutEndsTheCookieAndTheGuardedScreen() throws {
        let (application, _, client) = try app()
        defer { application.stop() }
        let value = String(
            try #require(cookie(try signIn(client, name: "alice", password: "correct horse").answer)).split(
                separator: ";")[0])
        let signedIn = ["Cookie": value]
        let screen = LivePage(try client.get("/counter", headers: signedIn))
        let page = LivePage(try client.get("/signout", headers: signedIn))
        #expect(page.html.contains("You are signed in as alice."))
        let answer = try client.post(
            try #require(page.actionPath("signOut")), form: ["csrf": try #require(page.csrfToken)], headers: signedIn)
        #expect(answer.status == 303)
        #expect(answer.header("Location") == "/")
        #expect(try #require(cookie(answer)).contains("Max-Age=0"))
        // Without the cookie, the screen opened while signed in takes no more posts.
        let post = try client.post(
            try #require(screen.actionPath("increment")), form: ["csrf": try #require(screen.csrfToken)],
            headers: [
                "Referer": "http://localhost:\(application.port)/counter", "Host": "localhost:\(application.port)",
            ])
        #expect(post.header("Location") == "/signin?next=/counter")
        #expect(LivePage(try client.get("/signout")).html.contains("You are not signed in."))
    }

    @Test func theBuiltInLayoutShowsItsAccountBarOnlyWithASignIn() throws {
        var server = ServerConfiguration()
        server.port = 0
        let plain = try Application(root: fixtureRoot + "/BuiltInLayout", server: server)
        try plain.screen("/counter", CounterViewController.self) { CounterFactory().make($0) }
        try plain.start()
        defer { plain.stop() }
        let without = try LiveClient(port: plain.port).get("/counter").text
        #expect(without.contains(#"class="account-bar" data-outlet="account" aria-label="Account" hidden>"#))
        let signed = try Application(root: fixtureRoot + "/BuiltInLayout", server: server)
        let signIn = SignIn(accounts: try accounts(), secret: Self.secret)
        try signed.use(signIn)
        try signed.screen("/counter", CounterViewController.self) { CounterFactory().make($0) }
        try signed.start()
        defer { signed.stop() }
        let client = LiveClient(port: signed.port)
        let answer = try self.signIn(client, name: "alice", password: "correct horse", url: "/signin").answer
        let value = String(try #require(cookie(answer)).split(separator: ";")[0])
        let page = try client.get("/counter", headers: ["Cookie": value]).text
        #expect(page.contains(#"class="account-bar" data-outlet="account" aria-label="Account">"#))
        #expect(page.contains(">alice</strong>"))
    }

    @Test func aHarnessGivesItsScreenASignInCookie() throws {
        let signIn = SignIn(accounts: try accounts(), secret: Self.secret)
        let seen = TestMutex<[String?]>([])
        for cookies in [[SignIn.cookieName: signIn.cookieValue(signingIn: "alice")], [:]] {
            _ = try ScreenHarness(templates: fixtureTemplates, url: "/counter", cookies: cookies) { request in
                seen.withLock { $0.append(signIn.user(for: request)) }
                return CounterFactory().make(request)
            }
        }
        #expect(seen.withLock { $0 } == ["alice", nil])
    }
}
