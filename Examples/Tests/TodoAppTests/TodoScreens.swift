import Foundation
import Screenplay
import ScreenplayTesting
import TodoApp

/// The to-do screen on `store` in a harness, signed in as `user`.
func makeHarness(store: TodoStore, user: String = "alice") throws -> ScreenHarness {
    try ScreenHarness(
        templates: TodoServer.resourceRoot + "/Templates", views: TodoServer.registerViews(in:), url: "/todos"
    ) { _ in
        TodoListViewController.make(store: store, user: user)
    }
}

/// The titles of the rows in `html`, in order, with " (done)" after a done one's.
func rowTitles(in html: String) -> [String] {
    html.matches(of: /<li id="[^"]+" class="item( done)?">.*?<span[^>]*class="title"[^>]*>([^<]*)<\/span>/)
        .map { String($0.output.2) + ($0.output.1 == nil ? "" : " (done)") }
}

/// The value the page shows in the new item's field.
func titleFieldValue(in html: String) -> String? {
    guard let input = html.firstMatch(of: /<input [^>]*name="title"[^>]*>/) else { return nil }
    if let value = input.output.firstMatch(of: /value="([^"]*)"/) { return String(value.output.1) }
    return input.output.contains(/\svalue[\s>]/) ? "" : nil
}
