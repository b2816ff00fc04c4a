import Dispatch
import HTTPServer
import Screenplay
import ScreenplayTesting
import TestSupport
import Testing

@Suite struct ActionTests {
    /// Without JavaScript a form post answers with the same screen session, at the screen's own URL naming it: its
    /// state counts 1, 2, 3, and the older session page shows the same.
    @Test func aFormPostFiresTheTapAndRedirectsToTheSameScreenSession() throws {
        let app = try TestApp()
        defer { app.application.stop() }
        let page = try app.openCounter()
        let address = "/counter?screen=\(page.sessionID!)"
        for count in 1...3 {
            let response = try app.client.post(page.actionPath("increment")!, form: ["csrf": page.csrfToken!])
            #expect(response.status == 303)
            #expect(response.header("Location") == address)
            for shown in [try app.client.get(address), try app.client.get("/screens/\(page.sessionID!)")] {
                #expect(shown.status == 200)
                #expect(shown.text.contains(">\(count)</p>"))
                #expect(shown.text.contains(page.csrfToken!))
            }
        }
        #expect(app.factory.createdRelays.count == 1)
        #expect(app.factory.createdRelays.first?.value == 3)
    }

    @Test func theSessionPageOfAnEndedSessionSendsTheBrowserBack() throws {
        let app = try TestApp()
        defer { app.application.stop() }
        let page = try app.openCounter()
        let leave = try app.client.post(page.actionPath("leave")!, form: ["csrf": page.csrfToken!])
        #expect(leave.status == 303)
        let shown = try app.client.get("/screens/\(page.sessionID!)", headers: ["Referer": "/counter"])
        #expect(shown.status == 303)
        #expect(shown.header("Location") == "/counter")
        #expect(try app.client.get("/screens/unknown-session").status == 303)
    }

    @Test func aScriptPostAnswers204AndThePatchArrivesOnTheStream() throws {
        let app = try TestApp()
        defer { app.application.stop() }
        let page = try app.openCounter()
        let events = try app.client.openEvents(for: page)
        defer { events.close() }
        let response = try app.client.post(
            page.actionPath("increment")!, form: ["csrf": page.csrfToken!], headers: ["X-Requested-With": "fetch"])
        #expect(response.status == 204)
        let patch = try events.next { $0.event == "patch" }
        #expect(patch?.data.contains(">1</p>") == true)
        #expect(patch?.number == 1)
    }

    /// An action waits for its screen's turn without holding an I/O thread: with one, a request waiting for a busy
    /// screen held up every request of the connections that thread serves (here all of them: the page would time
    /// out).
    @Test func anActionForABusyScreenHoldsUpNoOtherRequest() throws {
        let app = try TestApp(threadCount: 1)
        defer { app.application.stop() }
        let page = try app.openCounter()
        let events = try app.client.openEvents(for: page)
        defer { events.close() }
        let session = try #require(app.application.sessions.session(id: page.sessionID!))
        let status = TestMutex<Int?>(nil)
        let posted = DispatchSemaphore(value: 0)
        let (path, token, port) = (page.actionPath("increment")!, page.csrfToken!, app.application.port)
        try whileBusy({ session.scheduler.schedule($0) }) {
            DispatchQueue.global().async {
                let response = try? LiveClient(port: port, timeout: 10).post(
                    path, form: ["csrf": token], headers: ["X-Requested-With": "fetch"])
                status.withLock { $0 = response?.status }
                posted.signal()
            }
            // The action is in: queued on the screen behind the held turn.
            #expect(eventually { session.scheduler.unfinishedWork == 2 })
            let other = try LiveClient(port: app.application.port, timeout: 2).get("/counter")
            #expect(other.status == 200)
            #expect(status.withLock { $0 } == nil)
        }
        posted.wait()
        #expect(status.withLock { $0 } == 204)
        let patch = try events.next { $0.event == "patch" }
        #expect(patch?.data.contains(">1</p>") == true)
    }

    @Test func aWrongOrMissingTokenIs403AndChangesNothing() throws {
        let app = try TestApp()
        defer { app.application.stop() }
        let page = try app.openCounter()
        let other = try app.openCounter()
        let path = page.actionPath("increment")!
        #expect(try app.client.post(path, form: ["csrf": "forged"]).status == 403)
        #expect(try app.client.post(path, form: [:]).status == 403)
        #expect(try app.client.post(path, form: ["csrf": other.csrfToken!]).status == 403)
        #expect(app.factory.createdRelays.allSatisfy { $0.value == 0 })
    }

    @Test func aCrossOriginPostIs403() throws {
        let app = try TestApp()
        defer { app.application.stop() }
        let page = try app.openCounter()
        let path = page.actionPath("increment")!
        let form = ["csrf": page.csrfToken!]
        #expect(try app.client.post(path, form: form, headers: ["Origin": "http://evil.example"]).status == 403)
        #expect(try app.client.post(path, form: form, headers: ["Sec-Fetch-Site": "cross-site"]).status == 403)
        #expect(try app.client.post(path, form: form, headers: ["Origin": "http://127.0.0.1"]).status == 303)
        #expect(app.factory.createdRelays.first?.value == 1)
    }

    @Test func anUnknownActionIs404() throws {
        let app = try TestApp()
        defer { app.application.stop() }
        let page = try app.openCounter()
        let path = "/screens/\(page.sessionID!)/actions/explode"
        #expect(try app.client.post(path, form: ["csrf": page.csrfToken!]).status == 404)
    }

    /// A post to a screen this instance does not hold builds it from the page's token; a token that does not verify
    /// is refused, and nothing is built.
    @Test func aPostToAnUnknownScreenWithoutItsPagesTokenIs403() throws {
        let app = try TestApp()
        defer { app.application.stop() }
        let response = try app.client.post(
            "/screens/AAAAAAAAAAAAAAAAAAAAAA/actions/increment", form: ["csrf": "x"],
            headers: ["Referer": "http://127.0.0.1/counter?start=5"])
        #expect(response.status == 403)
        let noToken = try app.client.post("/screens/nope/actions/increment", form: [:])
        #expect(noToken.status == 403)
        #expect(app.application.openSessionCount == 0)
        #expect(app.factory.createdRelays.isEmpty)
    }

    @Test func getOnAnActionURLIsNotAllowed() throws {
        let app = try TestApp()
        defer { app.application.stop() }
        let page = try app.openCounter()
        let response = try app.client.get(page.actionPath("increment")!)
        #expect(response.status == 405)
        #expect(response.header("Allow")?.contains("POST") == true)
    }

    @Test func navigatingAwayEndsTheSessionAndTellsTheClientWhere() throws {
        let app = try TestApp()
        defer { app.application.stop() }
        let page = try app.openCounter()
        let events = try app.client.openEvents(for: page)
        defer { events.close() }
        let response = try app.client.post(
            page.actionPath("leave")!, form: ["csrf": page.csrfToken!], headers: ["X-Requested-With": "fetch"])
        #expect(response.status == 204)
        #expect(response.header("Screenplay-Navigate") == "/counter?from=leave")
        let navigate = try events.next { $0.event == "navigate" }
        #expect(navigate?.data == "/counter?from=leave")
        #expect(eventually { app.application.openSessionCount == 0 })

        let form = try app.openCounter()
        let formResponse = try app.client.post(form.actionPath("leave")!, form: ["csrf": form.csrfToken!])
        #expect(formResponse.status == 303)
        #expect(formResponse.header("Location") == "/counter?from=leave")
    }

    @Test func pagesAreNotStored() throws {
        let app = try TestApp()
        defer { app.application.stop() }
        let response = try app.client.get("/counter")
        #expect(response.header("Cache-Control") == "no-store")
        #expect(response.header("Content-Type")?.hasPrefix("text/html") == true)
    }
}
