import Foundation
import HTTPServer
import Screenplay
import ScreenplayTesting
import Testing

/// Forms over real sockets: input events, action posts carrying their form, row actions, refusals.
@Suite struct FormPostTests {
    private func input(_ app: ChoresApp, _ page: LivePage, _ form: [String: String], headers: [String: String] = [:])
        throws -> LiveResponse
    {
        try app.client.post(page.inputPath!, form: form, headers: ["X-Requested-With": "fetch"].merging(headers) { $1 })
    }

    @Test func anInputEventSetsTheFieldAndReachesRxTextWithoutAPatch() throws {
        let app = try ChoresApp()
        defer { app.application.stop() }
        let page = try app.open()
        let events = try app.client.openEvents(for: page)
        defer { events.close() }
        let answer = try input(app, page, ["csrf": page.csrfToken!, "name": "chore", "value": "Mop", "seq": "1"])
        #expect(answer.status == 204)
        // An older sequence number is dropped.
        #expect(
            try input(app, page, ["csrf": page.csrfToken!, "name": "chore", "value": "M", "seq": "1"]).status == 204)
        #expect(app.book.typed.withLock { $0 } == ["Mop"])
        // The page shows the typed text already: no patch, until an action answers (with its ack after it).
        let add = try app.client.post(
            page.actionPath("add")!, form: ["csrf": page.csrfToken!, "chore": "Mop the hall", "_aid": "a1"],
            headers: ["X-Requested-With": "fetch"])
        #expect(add.status == 204)
        let patch = try events.next { $0.event == "patch" }
        #expect(patch?.data.contains("Mop the hall") == true)
        #expect(patch?.number == 1)
        let ack = try events.next { $0.event == "ack" }
        #expect(ack?.data == "a1")
        #expect(ack?.number == 2)
    }

    @Test func anActionPostCarriesEveryFieldOfItsFormBeforeTheTap() throws {
        let app = try ChoresApp()
        defer { app.application.stop() }
        let page = try app.open()
        let response = try app.client.post(
            page.actionPath("add")!,
            form: ["csrf": page.csrfToken!, "chore": "Sweep", "minutes": "15", "urgent": "on", "room": "kitchen"])
        #expect(response.status == 303)
        let added = try #require(app.book.chores.value.last)
        #expect(added == Chore(id: 3, title: "Sweep", minutes: 15, urgent: true, room: "kitchen"))
        // A switch of the form that is not posted is off (an unticked checkbox posts nothing).
        _ = try app.client.post(page.actionPath("add")!, form: ["csrf": page.csrfToken!, "chore": "Dust", "room": ""])
        #expect(app.book.chores.value.last?.urgent == false)
        #expect(app.book.chores.value.last?.room == nil)
    }

    /// Without JavaScript a failed validation shows the same screen with the typed values and the errors.
    @Test func aFailedValidationWithoutJavaScriptShowsTheSameScreenWithTheValuesAndErrors() throws {
        let app = try ChoresApp()
        defer { app.application.stop() }
        let page = try app.open()
        let response = try app.client.post(
            page.actionPath("add")!, form: ["csrf": page.csrfToken!, "chore": "", "minutes": "12.5"])
        #expect(response.status == 303)
        #expect(response.header("Location") == "/chores?screen=\(page.sessionID!)")
        let shown = try app.client.get(response.header("Location")!).text
        #expect(shown.contains("Name the chore."))
        #expect(shown.contains("Whole minutes"))
        #expect(shown.contains("value=\"12.5\""))
        #expect(shown.contains("aria-invalid=\"true\""))
        #expect(app.book.chores.value.count == 2)
    }

    @Test func rowButtonsShareOneActionAndTapTheirOwnRow() throws {
        let app = try ChoresApp()
        defer { app.application.stop() }
        let page = try app.open()
        let path = "/screens/\(page.sessionID!)/actions/done"
        #expect(page.html.contains("action=\"\(path)?row=1\""))
        #expect(page.html.contains("action=\"\(path)?row=2\""))
        #expect(try app.client.post(path + "?row=2", form: ["csrf": page.csrfToken!]).status == 303)
        #expect(app.book.chores.value.map(\.id) == [1])
        // The row is gone now: the same post does nothing but say so in the screen, never an error page.
        let again = try app.client.post(path + "?row=2", form: ["csrf": page.csrfToken!])
        #expect(again.status == 303)
        #expect(app.book.chores.value.map(\.id) == [1])
        let shown = try app.client.get("/screens/\(page.sessionID!)").text
        #expect(shown.contains("That item is no longer there"))
    }

    /// An action's answer carries the cookies its handler set (a sign-in's, say), from script and from a plain form.
    @Test func anActionCanSetCookiesOnItsAnswer() throws {
        let app = try ChoresApp()
        defer { app.application.stop() }
        let page = try app.open()
        let path = "/screens/\(page.sessionID!)/actions/remember"
        let cookie = "chores_view=compact; Path=/; Max-Age=3600; HttpOnly; SameSite=Lax"
        let script = try app.client.post(path, form: ["csrf": page.csrfToken!], headers: ["X-Requested-With": "fetch"])
        #expect(script.status == 204)
        #expect(script.header("Set-Cookie") == cookie)
        let plain = try app.client.post(path, form: ["csrf": page.csrfToken!])
        #expect(plain.status == 303)
        #expect(plain.header("Set-Cookie") == cookie)
        // Taken with the answer: the next action's answer sets none.
        let add = try app.client.post(page.actionPath("add")!, form: ["csrf": page.csrfToken!, "chore": "Dust"])
        #expect(add.header("Set-Cookie") == nil)
    }

    @Test func aHiddenButtonTakesNoAction() throws {
        let app = try ChoresApp()
        defer { app.application.stop() }
        let page = try app.open()
        let response = try app.client.post(
            "/screens/\(page.sessionID!)/actions/secret", form: ["csrf": page.csrfToken!],
            headers: ["X-Requested-With": "fetch"])
        #expect(response.status == 404)
        #expect(app.book.secretTaps.withLock { $0 } == 0)
    }

    @Test func editingEventsReachControlEvent() throws {
        let app = try ChoresApp()
        defer { app.application.stop() }
        let page = try app.open()
        for (seq, event) in ["change", "end", "primary"].enumerated() {
            let form = ["csrf": page.csrfToken!, "name": "filter", "value": "di", "seq": "\(seq + 1)", "event": event]
            #expect(try input(app, page, form).status == 204)
        }
        #expect(app.book.filterEvents.withLock { $0 } == ["changed:di", "ended", "primary"])
    }

    @Test func badInputIsRefusedAndChangesNothing() throws {
        let app = try ChoresApp()
        defer { app.application.stop() }
        let page = try app.open()
        let other = try app.open()
        let token = page.csrfToken!
        let good = ["csrf": token, "name": "chore", "value": "x", "seq": "1"]
        func status(_ form: [String: String], headers: [String: String] = [:]) throws -> Int {
            try input(app, page, form, headers: headers).status
        }
        #expect(try status(good.merging(["csrf": "forged"]) { $1 }) == 403)
        #expect(try status(good.filter { $0.key != "csrf" }) == 403)
        #expect(try status(good.merging(["csrf": other.csrfToken!]) { $1 }) == 403)
        #expect(try status(good, headers: ["Origin": "https://evil.example"]) == 403)
        #expect(try status(good.merging(["name": "nothing"]) { $1 }) == 400)
        #expect(try status(good.merging(["extra": "1"]) { $1 }) == 400)
        #expect(try status(good.merging(["seq": "0"]) { $1 }) == 400)
        #expect(try status(good.merging(["event": "explode"]) { $1 }) == 400)
        #expect(try status(good.merging(["value": String(repeating: "a", count: 16 * 1024 + 1)]) { $1 }) == 400)
        #expect(try status(["csrf": token, "name": "minutes", "value": "ten", "seq": "1"]) == 400)
        #expect(try status(["csrf": token, "name": "room", "value": "attic", "seq": "1"]) == 400)
        #expect(try status(["csrf": token, "name": "urgent", "value": "maybe", "seq": "1"]) == 400)
        let invalidUTF8 = try app.client.request(
            "POST", page.inputPath!,
            headers: ["Content-Type": "application/x-www-form-urlencoded", "X-Requested-With": "fetch"],
            body: Array("csrf=\(token)&name=chore&seq=1&value=%FF%FE".utf8))
        #expect(invalidUTF8.status == 400)
        // A screen this instance does not hold, whose token is not the page's: refused, nothing built.
        #expect(try app.client.post("/screens/unknown/input", form: good).status == 403)
        // Action posts: an unknown field of the form, a value its field refuses.
        let add = page.actionPath("add")!
        #expect(try app.client.post(add, form: ["csrf": token, "chore": "A", "nothing": "1"]).status == 400)
        #expect(try app.client.post(add, form: ["csrf": token, "chore": "A", "minutes": "ten"]).status == 400)
        #expect(try app.client.post(add, form: ["csrf": token, "chore": "A", "_aid": "<script>"]).status == 400)
        // Nothing changed: no text reached the binder, no chore was added, the field is as it was.
        #expect(app.book.typed.withLock { $0 }.isEmpty)
        #expect(app.book.chores.value.count == 2)
        let shown = try app.client.get("/screens/\(page.sessionID!)").text
        #expect(shown.contains("name=\"chore\" type=\"text\" value placeholder"))
        #expect(!shown.contains("value=\"x\"") && !shown.contains("value=\"A\""))
    }
}
