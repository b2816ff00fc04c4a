/// The wire protocol between a page and its screens, defined once: every path, event name, header, form field and
/// `<html>` attribute, and the protocol's version. The router, the pages, the event streams, `ScreenplayTesting` and
/// the browser client all take their names from here; the client's `wire.js` is generated from these definitions
/// (``clientModule``), and a test fails when the checked-in module and this type disagree.
///
/// Contract: one version of the protocol is served. A client of another version is refused when it attaches a
/// screen (`409`), and reloads its page to get the current client.
///
/// ```swift
/// router.post(ScreenWire.action.pattern) { request in … }     // "/screens/:sid/actions/:action"
/// let target = ScreenWire.actionPath(screen: id, action: "close") // "/screens/Qm9v…/actions/close"
/// ```
package enum ScreenWire {
    /// The protocol's version, sent in the stream's first event and checked when a screen attaches.
    package static let version = 2

    // MARK: Paths

    /// A browser's shared event stream (`GET`).
    package static let streams = WirePath(.literal("/streams"))
    /// Attaches a screen to a stream (`POST`, fields ``Field/screen``, ``Field/csrf``, ``Field/url``,
    /// ``Field/last``, ``Field/version``).
    package static let attach = WirePath(.literal("/streams/"), .stream, .literal("/screens"))
    /// Detaches a screen from a stream (`POST`, fields ``Field/screen``, ``Field/csrf``).
    package static let detach = WirePath(.literal("/streams/"), .stream, .literal("/detach"))
    /// A live session's page (`GET`), where a form post without JavaScript lands.
    package static let page = WirePath(.literal("/screens/"), .screen)
    /// A button's action (`POST`).
    package static let action = WirePath(.literal("/screens/"), .screen, .literal("/actions/"), .action)
    /// A field's input as the user types (`POST`).
    package static let input = WirePath(.literal("/screens/"), .screen, .literal("/input"))
    /// The page is going away (`POST`, the `pagehide` beacon).
    package static let close = WirePath(.literal("/screens/"), .screen, .literal("/close"))
    /// A windowed table's rows from a place: `POST /screens/{sid}/rows` with `csrf`, `table` (the table's DOM id),
    /// `first` (the place of the first row the user sees) and `key` (that row's identity, its `data-key`).
    package static let rows = WirePath(.literal("/screens/"), .screen, .literal("/rows"))
    /// The upload endpoint (tus 1.0.0): `POST` creates, `HEAD`/`PATCH`/`DELETE` act on `/uploads/{id}`.
    package static let uploads = WirePath(.literal("/uploads"))

    /// Every path of the protocol, by the name the client knows it by.
    package static let paths: KeyValuePairs<String, WirePath> = [
        "streams": streams, "attach": attach, "detach": detach, "page": page, "action": action, "input": input,
        "close": close, "rows": rows, "uploads": uploads,
    ]

    /// The path of the session `screen`'s page.
    package static func pagePath(screen: String) -> String { join("/screens/", screen, "") }

    /// Where the session `screen`'s page posts its fields' input events.
    package static func inputPath(screen: String) -> String { join("/screens/", screen, "/input") }

    /// Where the session `screen`'s page posts the action `action`.
    package static func actionPath(screen: String, action: String) -> String {
        join("/screens/", screen, "/actions/", action)
    }

    /// The pieces joined, written once into a string of the exact size rather than interpolated piece by piece:
    /// every page renders its buttons' action paths.
    private static func join(_ start: StaticString, _ id: String, _ middle: StaticString, _ last: String = "")
        -> String
    {
        let count = start.utf8CodeUnitCount + id.utf8.count + middle.utf8CodeUnitCount + last.utf8.count
        return String(unsafeUninitializedCapacity: count) { storage in
            var writer = UTF8Writer(storage)
            writer.append(start)
            writer.append(utf8Of: id)
            writer.append(middle)
            writer.append(utf8Of: last)
            return writer.count
        }
    }

    // MARK: Events

    /// The events a stream carries.
    package enum Event: String, CaseIterable, Sendable {
        /// The stream's first event, without an id: `{"stream": id, "version": n}`.
        case stream
        /// Changed subtrees of a screen, by DOM id.
        case patch
        /// The whole screen, after a gap the server cannot replay.
        case reset
        /// The document's new title.
        case title
        /// The page goes to a URL.
        case navigate
        /// The screen's URL changed in place.
        case url
        /// An action post has been answered.
        case ack
        /// A screen unknown to the server was rebuilt from its URL under a new id.
        case rebuilt
        /// Development mode: a template does not parse.
        case developmentError = "dev-error"
        /// Development mode: the templates parse again.
        case developmentOK = "dev-ok"
        /// Development mode: a stylesheet changed.
        case developmentStylesheet = "dev-stylesheet"

        /// The events that belong to one screen and carry its id (`id: {sid}.{n}`).
        package static let screenEvents: [Event] = [.patch, .reset, .title, .navigate, .ack, .url]
        /// The development events, which every tab applies.
        package static let developmentEvents: [Event] = [.developmentError, .developmentOK, .developmentStylesheet]
    }

    // MARK: Fields, headers, attributes

    /// The form fields of the protocol's posts.
    package enum Field: String, CaseIterable, Sendable {
        /// The page's CSRF token.
        case csrf
        /// A screen's session id (attach, detach).
        case screen
        /// The screen's URL (attach: rebuilds a screen the server no longer has when the page's token does not
        /// verify).
        case url
        /// The last event id the tab applied (attach: what it missed is replayed).
        case last
        /// The client's protocol version (attach).
        case version
        /// A field's name (input).
        case name
        /// A field's value (input).
        case value
        /// A field's sequence number, increasing per field (input).
        case seq
        /// What kind of input event: one of ``InputEvent`` (input).
        case event
        /// An action post's id, acknowledged by ``Event/ack``.
        case actionID = "_aid"
        /// The query parameter naming the list row whose button posted an action.
        case row
        /// The digest of the render a page shows, from its `<html>` (attach: a screen built from the page's token
        /// resets the page only when its own render differs).
        case render
        /// A windowed table's DOM id (rows).
        case table
        /// The place of the first row the user sees (rows).
        case first
        /// That row's `data-key`, when the page has it (rows).
        case key
        /// The query parameter of a page without JavaScript that shows a presented view controller: the presenting
        /// screen's URL with `screen` and `modal=1` (answered like `screen` alone; it names the page apart).
        case modal
    }

    /// The kinds of input events a field posts.
    package enum InputEvent: String, CaseIterable, Sendable {
        /// The value changed while the user types.
        case change
        /// The user left the field.
        case end
        /// The user pressed Enter: the form's primary action follows.
        case primary
    }

    /// The headers of the protocol.
    package enum Header: String, CaseIterable, Sendable {
        /// Sent by the client script on its posts, with the value ``requestedWithFetch``.
        case requestedWith = "X-Requested-With"
        /// On a `204` to a script's post: where the page goes next.
        case navigate = "Screenplay-Navigate"
    }

    /// The value of ``Header/requestedWith`` on the client script's posts.
    package static let requestedWithFetch = "fetch"

    /// The attributes of a page's `<html>` that the client reads and writes.
    package enum Attribute: String, CaseIterable, Sendable {
        /// The protocol version the page speaks.
        case wire = "data-wire"
        /// The screen's session id.
        case screen = "data-screen"
        /// The page's CSRF token.
        case csrf = "data-csrf"
        /// Where the browser opens its shared stream.
        case streams = "data-streams"
        /// The screen's URL.
        case screenURL = "data-screen-url"
        /// The last event id the page includes.
        case lastEventID = "data-last-event-id"
        /// The client version the page loads.
        case client = "data-client"
        /// The digest of the render the page shows: 16 hexadecimal digits.
        case render = "data-render"
        /// Set by the client: `connecting`, `live` or `offline`.
        case connection = "data-connection"
        /// Set by the client: who holds the page's stream, `worker`, `leader`, `follower` or `tab`.
        case streamOwner = "data-stream-owner"
        /// Set by the client while it fetches the next screen of a move in place.
        case navigating = "data-navigating"
        /// On the `<dialog>` of a presented view controller (not on `<html>`): the client shows it with
        /// `showModal()`.
        case modal = "data-modal"
        /// On that `<dialog>`: the action its cancel (Escape) posts, when it has one.
        case cancel = "data-cancel"
        /// On a file field's input: the upload endpoint (tus 1.0.0) its files go to.
        case uploadURL = "data-upload-url"
        /// On a file field's input: the screen's session id, for the upload's metadata.
        case uploadScreen = "data-upload-screen"
        /// On a file field's input: the metadata key the screen's id goes under.
        case uploadScreenKey = "data-upload-screen-key"
        /// On a file field's input: the metadata key the page's CSRF token goes under.
        case uploadCSRFKey = "data-upload-csrf-key"
    }

    // MARK: The client's module

    /// The JavaScript module `wire.js` with these definitions, as the client imports it.
    package static var clientModule: String {
        func object(_ pairs: [(String, String)]) -> String {
            "Object.freeze({\n" + pairs.map { "  \($0.0): \(quoted($0.1)),\n" }.joined() + "})"
        }
        func list(_ values: [String]) -> String {
            "Object.freeze([" + values.map(quoted).joined(separator: ", ") + "])"
        }
        return """
            // The wire protocol's names, generated from ScreenWire (Sources/Screenplay/Wire/ScreenWire.swift): do not
            // edit. `swift test --filter ScreenWireTests` fails when this file and ScreenWire disagree, and rewrites it
            // with SNAPSHOT_TESTING_RECORD=all.

            export const VERSION = \(version);

            export const PATHS = \(object(paths.map { ($0.key, $0.value.template) }));

            export const EVENTS = \(object(Event.allCases.map { (identifier(of: $0), $0.rawValue) }));

            export const SCREEN_EVENTS = \(list(Event.screenEvents.map(\.rawValue)));

            export const DEVELOPMENT_EVENTS = \(list(Event.developmentEvents.map(\.rawValue)));

            export const FIELDS = \(object(Field.allCases.map { (identifier(of: $0), $0.rawValue) }));

            export const INPUT_EVENTS = \(object(InputEvent.allCases.map { (identifier(of: $0), $0.rawValue) }));

            export const HEADERS = \(object(Header.allCases.map { (identifier(of: $0), $0.rawValue) }));

            export const REQUESTED_WITH_FETCH = \(quoted(requestedWithFetch));

            export const ATTRIBUTES = \(object(Attribute.allCases.map { (identifier(of: $0), $0.rawValue) }));

            // A path of PATHS with its {placeholders} filled: path(PATHS.action, { sid: id, action: "close" }).
            export function path(template, parameters) {
              return template.replace(/\\{(\\w+)\\}/g, function (_, key) {
                if (!(key in parameters)) throw new Error("wire: no value for {" + key + "} in " + template);
                return encodeURIComponent(parameters[key]);
              });
            }

            """
    }

    private static func identifier<T>(of value: T) -> String { String(describing: value) }

    private static func quoted(_ text: String) -> String {
        "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
    }
}

/// A path of the wire protocol: literal pieces and named parameters, from which the router's pattern, the client's
/// template and concrete paths are made.
package struct WirePath: Sendable {
    /// A piece of a path.
    package enum Piece: Sendable {
        case literal(String)
        /// A screen's session id, named `sid`.
        case screen
        /// A shared stream's id, named `stream`.
        case stream
        /// An action's name, named `action`.
        case action

        /// The parameter's name, in route patterns and client templates; nil for a literal.
        package var parameterName: String? {
            switch self {
            case .literal: nil
            case .screen: "sid"
            case .stream: "stream"
            case .action: "action"
            }
        }
    }

    package let pieces: [Piece]

    init(_ pieces: Piece...) { self.pieces = pieces }

    /// The router's pattern: `/screens/:sid/actions/:action`.
    package var pattern: String { spelled { ":" + $0 } }

    /// The client's template: `/screens/{sid}/actions/{action}`.
    package var template: String { spelled { "{" + $0 + "}" } }

    /// The path with its parameters filled in order (for tests and clients; the hot paths have their own builders
    /// on ``ScreenWire``).
    package func path(_ values: String...) -> String {
        var remaining = values[...]
        var result = ""
        for piece in pieces {
            if case .literal(let text) = piece { result += text } else { result += remaining.popFirst() ?? "" }
        }
        return result
    }

    private func spelled(_ parameter: (String) -> String) -> String {
        pieces.map { piece in
            if case .literal(let text) = piece { text } else { parameter(piece.parameterName ?? "") }
        }.joined()
    }
}
