internal import Foundation
import Primitives
public import Reactive
public import Screenplay
public import ViewKit

/// Runs one screen without a server, for binder and view-controller tests.
///
/// The harness builds the screen from its factory on a fresh screen scheduler, runs its lifecycle, taps buttons
/// by action name and records the events the screen would send to its page. Nothing waits on a clock: every call
/// returns once the screen's scheduler has finished the work it caused (including the end-of-turn flush), so
/// tests are deterministic.
///
/// ```swift
/// let harness = try ScreenHarness(templates: "Templates") { _ in
///     let viewController = MovieDetailViewController()
///     viewController.bag.insert(MovieDetailBinder(viewController: viewController, driver: driver))
///     return viewController
/// }
/// harness.tap("refresh")
/// #expect(harness.patches.count == 1)
/// assertSnapshot(of: harness.pageHTML, as: .html)
/// ```
public final class ScreenHarness: Sendable {
    /// The scheduler the screen runs on.
    public let scheduler: ScreenScheduler
    private let state: ScreenConfined<Screen?>
    private let recorded: ScreenConfined<[ScreenEvent]>

    /// Builds the screen for `url` with `factory` and runs `loadView` → `viewDidLoad` → `viewWillAppear(false)`.
    ///
    /// - Parameters:
    ///   - templates: the folder holding `layout.html` and the screens' templates.
    ///   - views: registers custom view classes named by `data-view`.
    ///   - url: the screen's URL; `parameters` are its path parameters.
    ///   - headers, cookies: what the factory's ``ScreenRequest`` carries, as if the browser had sent them (a
    ///     sign-in's cookie: `[SignIn.cookieName: signIn.cookieValue(signingIn: "alice")]`).
    ///   - signIn: the application's sign-in, when it has one: the layout's signed-in outlets show the user the
    ///     request's cookie names, as on a served page.
    ///   - appear: also run `viewDidAppear(false)`, as when the page's event stream connects (default true). Until
    ///     then the screen holds what its conflated sources send, as a served screen no stream watches does.
    ///
    /// The screen is put together as a served page's is (the same assembly: the templates with the framework's
    /// `<head>` and built-in screens, the layout's checks, the sign-in's outlets), with the session id `test`, the
    /// token `test-token` and the client version `test`.
    public init(
        templates directory: String, views: (ViewRegistry) -> Void = { _ in }, url: String = "/",
        parameters: [String: String] = [:], headers: HTTPHeaders = [:], cookies: [String: String] = [:],
        parent: String = "/", signIn: SignIn? = nil, appear: Bool = true,
        factory: @escaping @Sendable (ScreenRequest) throws -> ViewController
    ) throws {
        let registry = ViewRegistry()
        views(registry)
        let assembly = try ScreenAssembly(
            templatesIn: directory, registry: registry, clientHead: ClientAssets.headMarkup(version: "test"),
            clientVersion: "test")
        let scheduler = ScreenScheduler(label: "screen-harness")
        self.scheduler = scheduler
        state = ScreenConfined(nil, on: scheduler)
        recorded = ScreenConfined([], on: scheduler)
        let request = Self.request(url: url, parameters: parameters, headers: headers, cookies: cookies)
        let mistakes = mistakes
        scheduler.onProgrammerError { error in mistakes.withLock { $0.append(error) } }
        // As a served screen: what its conflated sources send waits until a page watches it.
        scheduler.hold()
        try scheduler.sync { [state, recorded] in
            let screen = try assembly.makeScreen(
                request: request, backURL: parent, sessionID: "test", csrfToken: "test-token", signIn: signIn,
                factory: factory)
            screen.scheduleFlush = { [state] in state.scheduler.atEndOfTurn { state.value?.flush() } }
            screen.eventObserver = { [recorded] event in recorded.value.append(event) }
            screen.digestsRenders = false
            state.value = screen
            _ = screen.renderPage()
            if appear {
                screen.appearIfNeeded()
                scheduler.resume()
            }
        }
        settle()
        // A mistake of the screen's code while it was built fails the harness, as it fails the page load.
        if let first = mistakes.withLock({ $0.first }) { throw first }
    }

    private let mistakes = Locked<[ProgrammerError]>([])

    /// The programmer errors the screen's code made after it was built (a binder's callback that read a missing
    /// outlet, say), oldest first: each did nothing where it happened, as on a server.
    public var programmerErrors: [ProgrammerError] {
        mistakes.withLock { $0 }
    }

    /// The request a GET of `url` makes: its path, and its query decoded.
    static func request(
        url: String, parameters: [String: String], headers: HTTPHeaders = [:], cookies: [String: String] = [:]
    ) -> ScreenRequest {
        let components = URLComponents(string: url)
        var query: [String: String] = [:]
        for item in components?.queryItems ?? [] { query[item.name] = item.value ?? "" }
        let path = components.map { $0.percentEncodedPath.isEmpty ? "/" : $0.percentEncodedPath } ?? url
        return ScreenRequest(
            url: url, path: path, parameters: parameters, query: query, headers: headers, cookies: cookies,
            remoteAddress: "127.0.0.1", browserID: "harness-browser")
    }

    /// Runs `body` on the screen's scheduler with its view controller, then lets the screen flush.
    @discardableResult
    public func onScreen<Controller: ViewController, T: Sendable>(
        _ type: Controller.Type, _ body: (Controller) throws -> T
    ) rethrows -> T {
        let result = try scheduler.sync { [state] in
            guard let controller = state.value?.viewController as? Controller else {
                preconditionFailure("The screen's view controller is not a \(Controller.self)")
            }
            return try body(controller)
        }
        settle()
        return result
    }

    /// Taps the button whose `data-action` is `action`, as the page's script posts it: a button in a form posts every
    /// field of the form (what was typed and not yet sent goes with it); `row` picks the button of the list row with
    /// that identity. Returns false if nothing was tapped (no enabled, visible such button; a row gone; a value the
    /// screen refused).
    @discardableResult
    public func tap(_ action: String, row: (any Hashable)? = nil) -> Bool {
        let rowText = row.map { String(describing: $0) }
        let pending = typing.withLock { typing in
            defer { typing.pending = [:] }
            return typing.pending.mapValues(\.value)
        }
        let outcome = scheduler.sync { [state] () -> String in
            guard let screen = state.value else { return "ended" }
            var scope: View = screen.page
            if let rowText, let list = Self.list(containingRow: rowText, in: screen.page),
                let rowView = list.row(withIdentityDescription: rowText)
            {
                scope = rowView
            }
            let form = Self.button(action, in: scope)?.enclosingForm
            let fields = (form?.fields ?? []).compactMap { field -> (name: String, value: String)? in
                guard let value = pending[field.name] ?? field.formValue else { return nil }
                return (field.name, value)
            }
            return "\(screen.perform(action: action, row: rowText, fields: fields, answering: nil))"
        }
        settle()
        return outcome == "performed"
    }

    private static func button(_ action: String, in view: View) -> Button? {
        if let button = view as? Button, button.actionName == action { return button }
        for subview in view.liveSubviews {
            if let found = button(action, in: subview) { return found }
        }
        return nil
    }

    private static func list(containingRow row: String, in view: View) -> ListView? {
        if let list = view as? ListView { return list.row(withIdentityDescription: row) != nil ? list : nil }
        for subview in view.liveSubviews {
            if let found = list(containingRow: row, in: subview) { return found }
        }
        return nil
    }

    // MARK: Typing, in virtual time

    /// The page's script, as the harness plays it: text typed and not yet sent, the virtual clock, the sequence
    /// numbers per field, and the input events sent so far.
    private struct Typing: Sendable {
        var now: Duration = .zero
        var pending: [String: (value: String, due: Duration)] = [:]
        var sequences: [String: Int] = [:]
        var sent: [InputEvent] = []
    }

    /// An input event the harness sent to the screen, as the page's script would post it.
    public struct InputEvent: Sendable, Equatable {
        /// The field's name.
        public let field: String
        /// Its value.
        public let value: String
        /// When it was sent, on the harness's virtual clock.
        public let time: Duration
    }

    private let typing = Locked(Typing())

    /// How long the page's script waits after a keystroke before it sends the field's value (its default).
    public static let debounce = Duration.milliseconds(150)

    /// Types `text` into the field named `name` as the user would (the field then holds `text`): the value is sent
    /// to the screen ``debounce`` after this, unless more typing comes first, a ``blur(_:)``, or a tap of its form.
    /// Nothing reaches the screen until ``advance(by:)`` passes that time.
    public func type(_ name: String, _ text: String, debounce: Duration = ScreenHarness.debounce) {
        typing.withLock { typing in typing.pending[name] = (text, typing.now + debounce) }
    }

    /// Moves the virtual clock on by `duration`, sending the input events that fall due, in order.
    public func advance(by duration: Duration) {
        let due = typing.withLock { typing -> [(String, String)] in
            typing.now += duration
            let due = typing.pending.filter { $0.value.due <= typing.now }.sorted { $0.value.due < $1.value.due }
            for (name, _) in due { typing.pending[name] = nil }
            return due.map { ($0.key, $0.value.value) }
        }
        for (name, value) in due { send(name, value, event: .editingChanged) }
        deliverUploads()
    }

    // MARK: Uploads, in virtual time

    /// One event an upload played by ``upload(_:filename:type:to:chunk:every:refusal:)`` delivered to its field.
    public struct UploadEvent: Sendable, Equatable {
        /// The file field's name.
        public let field: String
        /// `started`, `progress`, `finished` or `failed`.
        public let kind: String
        /// The bytes stored when it was delivered.
        public let received: Int
        /// When it was delivered, on the harness's virtual clock.
        public let time: Duration
    }

    private struct ScheduledUpload: Sendable {
        let field: String
        let event: FileEvent
        let received: Int
        let due: Duration
    }

    private let uploads = Locked<(scheduled: [ScheduledUpload], delivered: [UploadEvent], count: Int)>(([], [], 0))

    /// Uploads `bytes` to the file field named `name` as the page's upload client and the endpoint would, in virtual
    /// time: `started` now, then a `progress` event per `chunk` bytes, `every` apart, as ``advance(by:)`` passes
    /// them, and `finished` with the file (its ``UploadedFile/contents()`` are `bytes`) with the last chunk. With a
    /// `refusal`, the first chunk ends it with `failed` and that message instead (a content the field does not
    /// accept). Answers the upload's id.
    @discardableResult
    public func upload(
        _ bytes: [UInt8], filename: String, type: String = "application/octet-stream", to name: String,
        chunk: Int = 64 * 1024, every interval: Duration = .milliseconds(100), refusal: String? = nil
    ) -> String {
        let chunk = max(chunk, 1)
        let id = uploads.withLock { state -> String in
            state.count += 1
            return "harness-upload-\(state.count)"
        }
        let now = typing.withLock { $0.now }
        func progress(_ received: Int) -> FileUploadProgress {
            FileUploadProgress(id: id, filename: filename, received: received, length: bytes.count)
        }
        var scheduled = [ScheduledUpload(field: name, event: .started(progress(0)), received: 0, due: now)]
        if let refusal {
            scheduled.append(
                ScheduledUpload(
                    field: name, event: .failed(id: id, message: refusal), received: 0, due: now + interval))
        } else {
            var received = 0
            var step = 1
            while received < bytes.count {
                received = min(bytes.count, received + chunk)
                if received < bytes.count {
                    scheduled.append(
                        ScheduledUpload(
                            field: name, event: .progress(progress(received)), received: received,
                            due: now + interval * step))
                }
                step += 1
            }
            let file = UploadedFile(
                id: id, filename: filename, declaredType: type, length: bytes.count, read: { bytes })
            scheduled.append(
                ScheduledUpload(
                    field: name, event: .finished(file), received: bytes.count, due: now + interval * (step - 1)))
        }
        uploads.withLock { $0.scheduled += scheduled }
        deliverUploads()
        return id
    }

    /// The upload events delivered so far, oldest first.
    public var uploadEvents: [UploadEvent] {
        uploads.withLock { $0.delivered }
    }

    /// Delivers the upload events due on the virtual clock, in order.
    private func deliverUploads() {
        let now = typing.withLock { $0.now }
        let due = uploads.withLock { state -> [ScheduledUpload] in
            let due = state.scheduled.filter { $0.due <= now }
            state.scheduled.removeAll { $0.due <= now }
            return due
        }
        for upload in due {
            let kind: String
            switch upload.event {
            case .started: kind = "started"
            case .progress: kind = "progress"
            case .finished: kind = "finished"
            case .failed: kind = "failed"
            }
            let delivered = scheduler.sync { [state] () -> Bool in
                guard let screen = state.value else { return false }
                return screen.deliverFile(field: upload.field, upload.event)
            }
            if !delivered {
                ProgrammerErrors.report(
                    ProgrammerError(
                        mistake:
                            "ScreenHarness uploaded to the file field “\(upload.field)”, which the screen does not have.",
                        fix: "upload to a FileField the screen has (its name attribute, or its outlet name)."))
                continue
            }
            uploads.withLock {
                $0.delivered.append(
                    UploadEvent(field: upload.field, kind: kind, received: upload.received, time: upload.due))
            }
            settle()
        }
    }

    /// Leaves the field named `name`: what was typed and not yet sent goes at once, as an editing-ended event.
    public func blur(_ name: String) {
        let value = typing.withLock { $0.pending.removeValue(forKey: name)?.value }
        if let value { send(name, value, event: .editingDidEnd) }
    }

    /// Presses Enter in the field named `name` (outside a form): its value goes at once, as a primary action.
    public func pressEnter(_ name: String) {
        let pendingValue = typing.withLock { $0.pending.removeValue(forKey: name)?.value }
        let value = pendingValue ?? scheduler.sync { [state] in state.value?.page.field(named: name)?.formValue } ?? ""
        send(name, value, event: .primaryActionTriggered)
    }

    /// The input events sent to the screen so far, oldest first.
    public var inputEvents: [InputEvent] {
        typing.withLock { $0.sent }
    }

    private func send(_ name: String, _ value: String, event: ControlEvents) {
        let sequence = typing.withLock { typing -> Int in
            let next = (typing.sequences[name] ?? 0) + 1
            typing.sequences[name] = next
            typing.sent.append(InputEvent(field: name, value: value, time: typing.now))
            return next
        }
        let outcome = scheduler.sync { [state] () -> String in
            guard let screen = state.value else { return "ended" }
            return "\(screen.input(field: name, value: value, sequence: sequence, event: event))"
        }
        if outcome != "applied" {
            ProgrammerErrors.report(
                ProgrammerError(
                    mistake: "ScreenHarness sent “\(value.prefix(40))” to the field “\(name)”: \(outcome).",
                    fix:
                        "type into a field the screen has (its name attribute, or its outlet name), with a value it accepts."
                ))
        }
        settle()
    }

    /// Runs `viewDidAppear(false)` (once), as when the page's event stream connects: what the screen held while no
    /// page watched it is delivered now.
    public func appear() {
        scheduler.sync { [state, scheduler] in
            _ = state.value?.appearIfNeeded()
            scheduler.resume()
        }
        settle()
    }

    /// Waits until the work queued on the screen's scheduler so far (and the flush it causes) has run.
    public func settle() {
        scheduler.sync {}
        scheduler.sync {}
    }

    /// The whole page as the server would render it now.
    public var page: String {
        scheduler.sync { [state] in String(decoding: state.value?.renderPage() ?? [], as: UTF8.self) }
    }

    /// The screen's own view (inside the layout), rendered.
    public var screenHTML: String {
        scheduler.sync { [state] in
            guard let screen = state.value else { return "" }
            return String(decoding: screen.viewController.view.renderHTML(context: screen.context), as: UTF8.self)
        }
    }

    /// Every event the screen sent, oldest first.
    public var events: [ScreenEvent] {
        scheduler.sync { [recorded] in recorded.value }
    }

    /// The `patch` events' changes, one array per event.
    public var patches: [[ViewChange]] {
        events.compactMap { if case .patch(let changes) = $0 { changes } else { nil } }
    }

    /// The URLs the screen navigated to.
    public var navigations: [String] {
        events.compactMap { if case .navigate(let url) = $0 { url } else { nil } }
    }

    /// The event stream as text, one event per block, as on the wire: for snapshots of the patch stream.
    public var eventStreamText: String {
        events.enumerated().map { String(decoding: $1.encoded(id: $0 + 1), as: UTF8.self) }.joined()
    }

    /// Forgets the recorded events.
    public func clearEvents() {
        scheduler.sync { [recorded] in recorded.value = [] }
    }

    /// Ends the screen: `viewWillDisappear` → `viewDidDisappear` → the bag disposed.
    public func end() {
        scheduler.sync { [state] in
            state.value?.end()
            state.value = nil
        }
    }
}
