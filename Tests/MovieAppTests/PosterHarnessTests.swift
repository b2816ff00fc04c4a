import Foundation
import Screenplay
import ScreenplayTesting
import TestSupport
import Testing

@testable import MovieApp

/// The edit screen's Poster field in a `ScreenHarness`: an upload played in virtual time shows its progress on the
/// field, and the finished file becomes the movie's poster; a refused one shows its message at the field.
@Suite struct PosterHarnessTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 9, count: 150_000)

    @Test func anUploadInVirtualTimeShowsItsProgressThenBecomesThePoster() throws {
        let screens = try MovieScreens()
        let edit = try screens.edit(1)
        defer { edit.end() }
        let id = edit.upload(Self.png, filename: "heat.png", type: "image/png", to: "poster", chunk: 65_536)
        #expect(edit.uploadEvents.map(\.kind) == ["started"])
        #expect(edit.screenHTML.contains("Sending heat.png…"))
        edit.advance(by: .milliseconds(100))
        #expect(edit.uploadEvents.map(\.kind) == ["started", "progress"])
        #expect(edit.screenHTML.contains("value=\"65536\" max=\"150008\" aria-valuenow=\"65536\""))
        edit.advance(by: .milliseconds(100))
        #expect(edit.uploadEvents.last?.received == 131_072)
        #expect(try screens.store.movie(id: 1)?.posterUrl?.hasPrefix("/public/") == true)
        edit.advance(by: .milliseconds(100))
        #expect(
            edit.uploadEvents.map { "\($0.kind) \($0.received) \($0.time)" } == [
                "started 0 0.0 seconds", "progress 65536 0.1 seconds", "progress 131072 0.2 seconds",
                "finished 150008 0.3 seconds",
            ])
        // The file is kept off the screen: until the write scheduler runs, the screen says so and nothing changed.
        #expect(edit.screenHTML.contains("Saving the poster…"))
        #expect(try screens.store.movie(id: 1)?.posterUrl?.hasPrefix("/public/") == true)
        screens.writeScheduler.start()
        edit.advance(by: .zero)
        #expect(try screens.store.movie(id: 1)?.posterUrl == "/posters/\(id)")
        #expect(try screens.store.poster(key: id)?.bytes == Self.png)
        #expect(edit.screenHTML.contains("The new poster is saved."))
        #expect(edit.screenHTML.contains("Sent heat.png."))
    }

    @Test func aRefusedUploadShowsItsMessageAtTheField() throws {
        let screens = try MovieScreens()
        let edit = try screens.edit(1)
        defer { edit.end() }
        edit.upload(
            Array("GIF89a".utf8), filename: "cat.gif", to: "poster",
            refusal: "Choose a PNG, JPEG or WebP file; cat.gif is not one.")
        edit.advance(by: .milliseconds(100))
        #expect(edit.uploadEvents.map(\.kind) == ["started", "failed"])
        let html = edit.screenHTML
        #expect(html.contains("aria-invalid=\"true\""))
        #expect(html.contains("Choose a PNG, JPEG or WebP file; cat.gif is not one.</p>"))
        #expect(try screens.store.movie(id: 1)?.posterUrl?.hasPrefix("/public/") == true)
    }
}
