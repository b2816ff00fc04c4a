import Foundation
import HTTPServer
import Screenplay
import ScreenplayTesting
import Testing

/// Hostile posts to action URLs: each is refused (or sent to a fresh screen) and no counter moves. Complements
/// `ActionTests`, which checks the single cases of each refusal.
@Suite struct ActionAttackTests {
    @Test func aReplayedTokenAfterTheSessionEndedChangesNothing() throws {
        let app = try TestApp()
        defer { app.application.stop() }
        let page = try app.openCounter()
        let path = page.actionPath("increment")!
        #expect(try app.client.post(path, form: ["csrf": page.csrfToken!]).status == 303)
        #expect(app.factory.createdRelays.first?.value == 1)
        // Leaving navigates: the session ends.
        #expect(try app.client.post(page.actionPath("leave")!, form: ["csrf": page.csrfToken!]).status == 303)
        for _ in 0..<5 {
            let replay = try app.client.post(path, form: ["csrf": page.csrfToken!])
            #expect(replay.status == 303)
        }
        #expect(app.factory.createdRelays.first?.value == 1)
    }

    @Test(arguments: [
        "", "x", "AAAAAAAAAAAAAAAAAAAAAA", String(repeating: "A", count: 21), String(repeating: "A", count: 23),
        String(repeating: "A", count: 4000), "%00", "%2e%2e", "<script>", "' OR 1=1 --",
    ])
    func aForgedTokenIs403(token: String) throws {
        let app = try TestApp()
        defer { app.application.stop() }
        let page = try app.openCounter()
        let response = try app.client.post(page.actionPath("increment")!, form: ["csrf": token])
        #expect(response.status == 403)
        #expect(!response.text.contains(page.csrfToken!))
        #expect(app.factory.createdRelays.allSatisfy { $0.value == 0 })
    }

    @Test func aTokenWithOneCharacterChangedIs403() throws {
        let app = try TestApp()
        defer { app.application.stop() }
        let page = try app.openCounter()
        let token = page.csrfToken!
        for index in [0, token.count / 2, token.count - 1] {
            var characters = Array(token)
            characters[index] = characters[index] == "A" ? "B" : "A"
            let response = try app.client.post(page.actionPath("increment")!, form: ["csrf": String(characters)])
            #expect(response.status == 403)
        }
        #expect(app.factory.createdRelays.allSatisfy { $0.value == 0 })
    }

    @Test func tokensOfOtherSessionsNeverWork() throws {
        let app = try TestApp()
        defer { app.application.stop() }
        let pages = try (0..<5).map { _ in try app.openCounter() }
        for (index, page) in pages.enumerated() {
            let other = pages[(index + 1) % pages.count]
            let response = try app.client.post(page.actionPath("increment")!, form: ["csrf": other.csrfToken!])
            #expect(response.status == 403)
            // The session id is not a token either.
            let withID = try app.client.post(page.actionPath("increment")!, form: ["csrf": page.sessionID!])
            #expect(withID.status == 403)
        }
        #expect(app.factory.createdRelays.allSatisfy { $0.value == 0 })
    }

    @Test(arguments: [
        ["Origin": "http://evil.example"], ["Origin": "null"], ["Origin": "http://127.0.0.1.evil.example"],
        ["Origin": "http://evil.example/http://127.0.0.1"], ["Origin": "http://127.0.0.1:1"],
        ["Origin": "file://"], ["Origin": ""], ["Sec-Fetch-Site": "cross-site"], ["Sec-Fetch-Site": "same-site"],
        ["Sec-Fetch-Site": "cross-site", "Origin": "http://127.0.0.1"],
    ])
    func aCrossOriginPostIs403WithAValidToken(headers: [String: String]) throws {
        let app = try TestApp()
        defer { app.application.stop() }
        let page = try app.openCounter()
        var headers = headers
        headers["X-Requested-With"] = "fetch"
        let response = try app.client.post(
            page.actionPath("increment")!, form: ["csrf": page.csrfToken!], headers: headers)
        #expect(response.status == 403, "\(headers)")
        #expect(app.factory.createdRelays.allSatisfy { $0.value == 0 })
    }

    @Test func guessedSessionIdsReachNoScreenAndOpenNone() throws {
        let app = try TestApp()
        defer { app.application.stop() }
        let page = try app.openCounter()
        let real = page.sessionID!
        var guesses = (0..<50).map { _ in
            String(
                (0..<22).map { _ in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".randomElement()!
                })
        }
        guesses += [real.lowercased(), real.uppercased(), String(real.dropLast()), real + "A", "%00", "..", "*"]
        for guess in guesses where guess != real {
            let response = try app.client.post(
                "/screens/\(guess)/actions/increment", form: ["csrf": page.csrfToken!],
                headers: ["X-Requested-With": "fetch"])
            #expect(response.status == 403 || response.status == 404, "\(guess)")
            let events = try app.client.get("/screens/\(guess)/events")
            #expect(events.status == 404, "\(guess)")
        }
        #expect(app.factory.createdRelays.isEmpty)
        #expect(app.application.openSessionCount == 0)
    }

    @Test(arguments: [
        "explode", "INCREMENT", "increment%00", "increment%20", "..%2fincrement", "constructor", "__proto__",
        String(repeating: "a", count: 2000), "%3Cscript%3E",
    ])
    func unknownActionsAre404AndChangeNothing(action: String) throws {
        let app = try TestApp()
        defer { app.application.stop() }
        let page = try app.openCounter()
        let response = try app.client.post(
            "/screens/\(page.sessionID!)/actions/\(action)", form: ["csrf": page.csrfToken!])
        #expect(response.status == 404, "\(action)")
        #expect(!response.text.contains("<script>"))
        #expect(app.factory.createdRelays.allSatisfy { $0.value == 0 })
        // The session still works.
        #expect(try app.client.post(page.actionPath("increment")!, form: ["csrf": page.csrfToken!]).status == 303)
    }

    @Test(arguments: ["GET", "PUT", "DELETE", "PATCH", "OPTIONS"])
    func otherMethodsOnActionURLsAre405AndChangeNothing(method: String) throws {
        let app = try TestApp()
        defer { app.application.stop() }
        let page = try app.openCounter()
        let body = Array("csrf=\(page.csrfToken!)".utf8)
        let response = try app.client.request(
            method, page.actionPath("increment")!,
            headers: ["Content-Type": "application/x-www-form-urlencoded"], body: body)
        #expect(response.status == 405, "\(method)")
        #expect(app.factory.createdRelays.allSatisfy { $0.value == 0 })
    }

    @Test func aTokenInTheQueryStringInsteadOfTheBodyIs403() throws {
        let app = try TestApp()
        defer { app.application.stop() }
        let page = try app.openCounter()
        let response = try app.client.request(
            "POST", page.actionPath("increment")! + "?csrf=\(page.csrfToken!)",
            headers: ["Content-Type": "application/x-www-form-urlencoded"])
        #expect(response.status == 403)
        #expect(app.factory.createdRelays.allSatisfy { $0.value == 0 })
    }
}
