import Primitives
public import Reactive
public import ViewKit

/// Manages one screen's view tree, like `UIViewController`; built for subclassing.
///
/// Its view loads lazily from the template named by ``templateName`` (`Templates/<name>.html`), and reaches its
/// outlets with ``Outlet``:
///
/// ```swift
/// final class MovieDetailViewController: ViewController {
///     @Outlet("backButton") var backButton: Button
///     @Outlet("headerView") var headerView: MovieHeaderView
/// }
/// ```
///
/// The runtime calls the lifecycle methods on the screen's scheduler: `loadView` → `viewDidLoad` →
/// `viewWillAppear(false)` when the page is built, `viewDidAppear(false)` when its event stream connects, and
/// `viewWillDisappear` → `viewDidDisappear` when the screen ends; then its ``bag`` is disposed. A view controller
/// is confined to its screen's scheduler and is not `Sendable`.
open class ViewController: DisposeContainer {
    /// The bag for this screen's subscriptions; disposed when the screen ends.
    public var bag: DisposeBag { storedBag }

    /// The page title; the layout shows it and open pages receive a `title` event when it changes.
    public var title: String? {
        get { storedTitle }
        set {
            let changed = !newValue.hasSameUTF8(as: storedTitle)
            storedTitle = newValue
            if changed { tellHostScreen() }
        }
    }

    /// How the page shell styles the top of the page.
    public var statusBarStyle: StatusBarStyle {
        get { storedStatusBarStyle }
        set {
            let changed = newValue != storedStatusBarStyle
            storedStatusBarStyle = newValue
            if changed { tellHostScreen() }
        }
    }

    /// Tells the screen showing this controller, if any, that the title or status bar style changed. The link is
    /// read into a constant first: a read of `hostScreen` spanning the call into the screen would need a run-time
    /// exclusivity check on every access to it, the screen's assignments too (Benchmarks/History/69-exclusivity-by-shape-2.md).
    private func tellHostScreen() {
        let screen = hostScreen
        screen?.shellDidChange()
    }

    // The storage of the three above, private and only read or assigned whole by their accessors: no access to it is
    // nested in another, so the optimizer proves every access exclusive when it compiles the module, where a public
    // stored property is checked at run time on every read and write (Benchmarks/History/65-exclusivity-by-shape.md).
    private var storedBag = DisposeBag()
    private var storedTitle: String?
    private var storedStatusBarStyle = StatusBarStyle.default

    /// The navigation controller presenting this view controller (or its parent, for a child); set by the runtime
    /// before the view loads.
    public var navigationController: NavigationController? { navigationLink ?? parentLink?.navigationController }
    /// The navigation controller that presents this controller itself (its top view controller): `unowned`, not
    /// `weak`, since a weak reference gives its object a side table for its whole life (Benchmarks/History/48).
    /// Sound because the navigation controller holds this one and clears the link when it goes (its `deinit`).
    unowned var navigationLink: NavigationController?

    /// The templates the view loads from; set by the runtime (or a test harness) before the view loads.
    public package(set) var templates: TemplateLibrary? {
        get { storedTemplates }
        set { storedTemplates = newValue }
    }
    /// `templates`' storage, private as the title's is (no run-time exclusivity check, Benchmarks/History/65).
    private var storedTemplates: TemplateLibrary?

    // `@exclusivity(unchecked)` on the internal state below (receipt: `ViewController` in
    // Benchmarks/History/26-receipts.md): sound because it is confined to the screen's scheduler, as its views are,
    // and none is held `inout` across a call out. Public properties keep Swift's checks.
    /// The screen showing this controller, told when the title or status bar style changes so it can tell open pages.
    /// `unowned`, not a closure holding the screen, which would be an object of its own a screen
    /// (Benchmarks/History/48). Sound because the screen clears it when it ends and in its `deinit`. Only read or
    /// assigned whole (``tellHostScreen()``), so the optimizer proves its accesses exclusive.
    unowned var hostScreen: Screen?

    @exclusivity(unchecked) private var loadedView: View?
    /// Outlets found so far: a view controller reads the same few outlets many times while its binder wires them,
    /// and each search walks the view tree. Kept as the views alone, each named by its `data-outlet` attribute: no
    /// second copy of the names (one word a slot).
    @exclusivity(unchecked) private var outletCache: [View] = []
    /// The lifecycle's subjects and the actions waiting for `viewDidLoad`: made when first asked for (a subscriber of
    /// `rx.viewWillAppear`, a load action), and let go after `viewDidLoad` when nothing observes the lifecycle, so a
    /// controller nothing watches (a child screen's, often) keeps none for its life (Benchmarks/History/48).
    private var lifecycleStorage: Lifecycle?
    /// Whether `viewDidLoad` has been sent or the load actions dropped: an action registered from now on never runs.
    private var loadActionsClosed = false
    /// Where in `outletCache` the next outlet read is looked for first (``outlet(named:as:)``). A byte beside the flag
    /// above, in room the next field's alignment leaves, so the controller is no larger.
    private var outletHint: UInt8 = 0
    /// Whether this controller keeps its lifecycle's subjects or load actions now (for tests that it lets them go).
    package var holdsLifecycle: Bool { lifecycleStorage != nil }
    var lifecycle: Lifecycle {
        if let lifecycleStorage { return lifecycleStorage }
        let made = Lifecycle(acceptsLoadActions: !loadActionsClosed)
        lifecycleStorage = made
        return made
    }
    /// The child view controllers, in the order they were added (``addChild(_:)``).
    public var children: [ViewController] { childList }
    /// `children`' storage: internal, where a public stored property is checked at run time on every access, and only
    /// read or assigned whole: ``addChild(_:)`` and ``removeFromParent()`` take it out, change it and put it back
    /// (Benchmarks/History/65, 69).
    var childList: [ViewController] = []
    /// The view controller this one is a child of, if any.
    public var parent: ViewController? { parentLink }
    /// The parent: `unowned`, not `weak`, for the reason `navigationLink` is. Sound because a parent holds its
    /// children and clears their links when it lets one go (``removeFromParent()``) or goes itself (its `deinit`).
    unowned var parentLink: ViewController?
    /// The view controller this one presents (``present(_:animated:completion:)``), if any.
    public internal(set) var presentedViewController: ViewController?
    /// The view controller that presents this one, if any.
    public internal(set) weak var presentingViewController: ViewController?
    /// The `<dialog>` that holds ``presentedViewController``'s view, in this controller's view.
    package var presentationDialog: View?
    /// The last appearance step performed (nil: not appeared yet), which a child added later catches up to.
    var appearance: Lifecycle.Step?
    /// The cookies ``setCookie(_:)`` set for the answer to the action being handled.
    private var pendingCookies: [Cookie] = []
    /// The types of the binders whose `bind()` ran on this controller, once a call, to tell them from a binder in the
    /// bag that binds nothing; emptied once checked (``reportUnboundBinders()``: by the screen for its controller, by
    /// ``addChild(_:)`` for a child). The first in a word of its own and any others in an array: a controller has one
    /// binder (the seed's pattern), which then takes no array's allocation (Benchmarks/History/80). Private and only
    /// read or assigned whole (``recordBoundBinder(_:)``), so no access to them is checked at run time
    /// (Benchmarks/History/69-exclusivity-by-shape-2.md).
    private var firstBoundBinder: ObjectIdentifier?
    /// The types of the binders that bound after the first (``firstBoundBinder``).
    private var moreBoundBinders: [ObjectIdentifier] = []

    /// The templates of the screen being built; view controllers created by a screen factory pick them up.
    @TaskLocal package static var screenTemplates: TemplateLibrary?

    /// Creates a view controller whose view loads from ``templateName``.
    public required init() {
        storedTemplates = Self.screenTemplates
    }

    deinit {
        // The children may outlive this controller (app code can hold one): their parent is nil from now on.
        for child in children { child.parentLink = nil }
    }

    /// The template this view controller's view loads from; by default the class name without a
    /// `ViewController` suffix (`MovieDetailViewController` → `MovieDetail`).
    open class var templateName: String {
        // Derived from the type's name once per class and kept for the process (receipt: `ViewController's template
        // names` in Benchmarks/History/26-receipts.md): every screen of the class asks when its view loads, and a
        // class's name never changes. Found by halving among the classes' identifiers, without hashing (History 80).
        let key = ObjectIdentifier(self)
        if let name = derivedTemplateNames.withLock({ $0.answer(for: key) }) { return name }
        let typeName = String(describing: self)
        let name =
            typeName.hasSuffix("ViewController") ? String(typeName.dropLast("ViewController".count)) : typeName
        derivedTemplateNames.withLock { $0.record(name, for: key) }
        return name
    }

    /// The root view of the screen, loaded on first access.
    public var view: View {
        loadViewIfNeeded()
        return loadedView!
    }

    /// Whether the view has been loaded.
    public var isViewLoaded: Bool { loadedView != nil }

    /// Sets `cookie` on the answer to the action being handled (a sign-in's session cookie, say): call it from the
    /// action's `rx.tap` handler or what it calls, on the screen. Cookies are `HttpOnly` and `SameSite=Lax` unless
    /// said otherwise; the script's `fetch` and a plain form post both store them.
    public func setCookie(_ cookie: Cookie) {
        pendingCookies.append(cookie)
    }

    /// The cookies set since the last answer, taken.
    package func takeCookies() -> [Cookie] {
        defer { pendingCookies = [] }
        return pendingCookies
    }

    /// Sets the view; for use from an overridden ``loadView()``.
    public func setView(_ view: View) {
        loadedView = view
    }

    /// Loads the view if it has not been loaded, then calls ``viewDidLoad()`` and emits `rx.viewDidLoad`.
    public func loadViewIfNeeded() {
        guard loadedView == nil else { return }
        loadView()
        if loadedView == nil {
            ProgrammerErrors.report(
                ProgrammerError(
                    mistake: "\(type(of: self)).loadView() did not set a view.",
                    fix: "call setView(_:) in loadView(), or do not override it to load the template."))
            loadedView = View()
        }
        viewDidLoad()
        loadActionsClosed = true
        guard let lifecycle = lifecycleStorage else { return }
        lifecycle.sendDidLoad()
        if lifecycleStorage === lifecycle, lifecycle.observesNothing { lifecycleStorage = nil }
    }

    /// Notes that the `bind()` of a binder of type `binder` ran on this controller (``reportUnboundBinders()``).
    func recordBoundBinder(_ binder: ObjectIdentifier) {
        guard firstBoundBinder != nil else {
            firstBoundBinder = binder
            return
        }
        // Taken out, grown and put back whole: an access spanning the append would be checked at run time.
        var more = moreBoundBinders
        moreBoundBinders = []
        more.append(binder)
        moreBoundBinders = more
    }

    /// Reports each binder in the bag whose `bind()` never ran: it would bind nothing, silently. Then forgets which
    /// binders bound: the list is asked nothing more, and a screen's controllers live as long as it does.
    ///
    /// A binder binds the controller whose bag holds it (the seed's pattern); each binder of a type in the bag takes
    /// one `bind()` of that type on this controller, and one without is reported. Matching by type needs no
    /// conversion of the bag's items to objects (`as AnyObject`; its cost is in Benchmarks/History/38).
    package func reportUnboundBinders() {
        var first = firstBoundBinder
        var more = moreBoundBinders
        firstBoundBinder = nil
        moreBoundBinders = []
        let items = bag.contents
        guard !items.isEmpty else { return }
        // A bag item of a type whose `bind()` ran here is a bound binder: matched without the cache. The others are
        // looked up with one hold of the cache's lock for the whole bag; a mistake is reported once it is released.
        var unbound: [any Disposable.Type] = []
        Self.binderTypes.withLock { known in
            for item in items {
                let type = type(of: item)
                let key = ObjectIdentifier(type)
                if key == first {
                    first = nil
                    continue
                }
                if !more.isEmpty, let index = more.firstIndex(of: key) {
                    more.remove(at: index)
                    continue
                }
                if Self.isBinderType(type, key: key, known: &known) { unbound.append(type) }
            }
        }
        for type in unbound {
            ProgrammerErrors.report(
                ProgrammerError(
                    mistake: "\(type) is in \(Swift.type(of: self))'s bag but its bind() was never called: "
                        + "it binds nothing.",
                    fix: "call bind() at the end of \(type).init, as the seed's binders do."))
        }
    }

    /// Whether values of `type` are view controller binders (classes), remembered by type in `known` (the process's
    /// ``binderTypes``, held by the caller): a cast of a bag's item to `any ViewControllerBinder` looks up the
    /// conformance each time, for every item of every bag (most of them subscriptions); a look-up here costs a hash
    /// of the type's address (Benchmarks/History/34), now a search in order without one (History 80).
    private static func isBinderType(
        _ type: any Disposable.Type, key: ObjectIdentifier, known: inout TypeAnswers<Bool>
    ) -> Bool {
        if let answer = known.answer(for: key) { return answer }
        // Only a class's binder has `bind()`; a value's is not checked.
        let isBinder = type is any ViewControllerBinder.Type && type is AnyClass
        known.record(isBinder, for: key)
        return isBinder
    }

    /// Whether the binder-type cache has an answer for `type` (for tests: a bound binder's type is matched without it).
    package static func hasCachedBinderAnswer(for type: any Disposable.Type) -> Bool {
        binderTypes.withLock { $0.answer(for: ObjectIdentifier(type)) != nil }
    }

    /// The answers of ``isBinderType(_:)`` so far, one per type of item ever put in a bag.
    private static let binderTypes = Locked(TypeAnswers<Bool>())

    /// Creates the view from ``templateName``. Override to build the view in code, and call ``setView(_:)``.
    open func loadView() {
        guard let templates else {
            ProgrammerErrors.report(
                ProgrammerError(
                    mistake: "\(type(of: self)) has no templates to load '\(Self.templateName)' from.",
                    fix: "create view controllers in a screen factory (or a ScreenHarness), which sets the templates."))
            return setView(View())
        }
        do {
            setView(try templates.template(named: Self.templateName).instantiate())
        } catch {
            ProgrammerErrors.report(
                ProgrammerError(
                    mistake: "\(type(of: self)) could not load its template: \(error)",
                    fix: "add Templates/\(Self.templateName).html, or override templateName to name the one to use."))
            setView(View())
        }
    }

    /// Called after the view has loaded.
    open func viewDidLoad() {}

    /// Runs `action` once, right after ``viewDidLoad()``, in order with `rx.viewDidLoad`'s subscribers and the
    /// binders' `bindLoaded` (whichever registered first runs first), unless the controller's bag is disposed
    /// before the view loads. Registered once the view has loaded (or while `rx.viewDidLoad` is being sent), it never
    /// runs, as a late subscriber of `rx.viewDidLoad` sees nothing.
    ///
    /// What a screen factory's `rx.viewDidLoad.subscribe(onNext:)` into the bag does, but nothing of it is kept once
    /// it has run: a subscription stays in the bag, with its closure and the subject, for the screen's life though
    /// `viewDidLoad` never comes again (Benchmarks/History/41).
    ///
    /// ```swift
    /// viewController.whenViewLoaded { [unowned viewController] in
    ///     viewController.editLink.setAttribute("href", "/movies/\(id)/edit")
    /// }
    /// ```
    public func whenViewLoaded(_ action: @escaping () -> Void) {
        guard !loadActionsClosed else { return }
        lifecycle.whenLoaded(action)?.disposed(by: bag)
    }

    /// Called before this controller is added to a parent (`parent`) or removed from one (`nil`), as in UIKit. The
    /// default does nothing.
    open func willMove(toParent parent: ViewController?) {}

    /// Called after this controller was added to a parent (`parent`: call it yourself once the child's view is in
    /// place, unless ``addChild(_:in:)`` did) or removed from one (`nil`). A child added to a parent that has
    /// appeared catches up here: its view loads and it appears. Override it and call `super`.
    open func didMove(toParent parent: ViewController?) {
        if parent != nil, parent === self.parent { catchUpWithParent() }
    }
    /// Called before the page is first rendered.
    open func viewWillAppear(_ animated: Bool) {}
    /// Called when the page's event stream connects: the screen is live.
    open func viewDidAppear(_ animated: Bool) {}
    /// Called when the screen is about to end (navigation away, expiry, eviction).
    open func viewWillDisappear(_ animated: Bool) {}
    /// Called when the screen has ended, before its bag is disposed.
    open func viewDidDisappear(_ animated: Bool) {}

    package func performViewWillAppear(_ animated: Bool) {
        appearance = .willAppear
        viewWillAppear(animated)
        lifecycleStorage?.send(.willAppear, animated)
        for child in children where child.isViewLoaded { child.performViewWillAppear(animated) }
    }

    package func performViewDidAppear(_ animated: Bool) {
        appearance = .didAppear
        viewDidAppear(animated)
        lifecycleStorage?.send(.didAppear, animated)
        for child in children where child.isViewLoaded { child.performViewDidAppear(animated) }
    }

    package func performViewWillDisappear(_ animated: Bool) {
        appearance = .willDisappear
        viewWillDisappear(animated)
        lifecycleStorage?.send(.willDisappear, animated)
        for child in children where child.isViewLoaded { child.performViewWillDisappear(animated) }
    }

    package func performViewDidDisappear(_ animated: Bool) {
        appearance = .didDisappear
        viewDidDisappear(animated)
        lifecycleStorage?.send(.didDisappear, animated)
        for child in children where child.isViewLoaded { child.performViewDidDisappear(animated) }
    }

    /// The view of the outlet `name`, as a `V`: searched in the view tree on first use, then remembered while it
    /// stays in this controller's view.
    ///
    /// The first look-up (and one after the remembered views all left the view) finds every outlet of the view in one
    /// walk, each name's first view in document order, as a look-up of each would then: a controller reads most of
    /// the outlets its template has, and a walk for each went over the same views again (Benchmarks/History/44).
    ///
    /// A binder reads the same outlets in the same order on every change of its screen's state: the view the hint
    /// points at is tried first, in place (its name, its type, that it is still in the view), with neither the view
    /// loaded again nor the remembered list handed to a search; any other read takes the search below
    /// (Benchmarks/History/70-fan-out-screens-5.md).
    func outlet<V: View>(named name: String, as type: V.Type) -> V {
        if let root = loadedView {
            let hint = Int(outletHint)
            // A copy of the list (one retain) lends its view to the checks, where each read of the stored list's
            // element was a retain of its own.
            let remembered = outletCache
            if hint < remembered.count, let typed = remembered[hint] as? V, typed.isOutlet(named: name),
                typed.isDescendant(of: root)
            {
                outletHint = hint < Int(UInt8.max) ? UInt8(hint + 1) : 0
                return typed
            }
        }
        let root = view
        if outletCache.isEmpty { root.gatherOutlets(into: &outletCache) }
        if let index = cachedOutletIndex(named: name) {
            if let typed = outletCache[index] as? V, typed.isDescendant(of: root) { return typed }
            outletCache.remove(at: index)
        }
        let found = root.outlet(name, as: V.self)
        outletCache.append(found)
        return found
    }

    /// Where the cached view of the outlet `name` is in `outletCache`, or nil when none is.
    ///
    /// A binder reads the same outlets in the same order on every change of its screen's state (each screen of a
    /// movie in a fan-out): the view after the one found last is tried first, and a view found further on is moved
    /// there, so that from the second change on a read compares one name, not all those before it in document order
    /// (Benchmarks/History/52). The cache holds one view a name, so its order is free.
    private func cachedOutletIndex(named name: String) -> Int? {
        let hint = Int(outletHint)
        guard var found = View.indexOfOutlet(named: name, in: outletCache, tryingFirst: hint) else { return nil }
        if found > hint {
            outletCache.swapAt(found, hint)
            found = hint
        }
        outletHint = found < Int(UInt8.max) ? UInt8(found + 1) : 0
        return found
    }

    /// Gives the outlet cache and the dispose bag the room they use and no more, once the screen is built (its
    /// binder has read the outlets it reads and made its subscriptions): both live as long as the screen, and
    /// growing by doubling left them up to half empty. The children added by then are compacted too.
    package func compactForLife() {
        outletCache = outletCache.trimmingCapacity()
        bag.compact()
        for child in children { child.compactForLife() }
    }

    /// Disposes every subscription in the bag; the screen has ended.
    package func disposeBag() {
        for child in children { child.disposeBag() }
        loadActionsClosed = true
        lifecycleStorage?.dropLoadActions()
        storedBag = DisposeBag()
        hostScreen = nil
    }

    /// The action the presentation's cancel (Escape) posts, after adding what it needs to `dialog`. A plain view
    /// controller gets a Close button that dismisses it.
    func cancelActionForPresentation(in dialog: View) -> String? {
        let close = Button(title: "Close", actionName: "sp-dismiss")
        close.classList.insert("sp-dialog-close")
        dialog.addSubview(close)
        bag.insert(close.rx.tap.bind(onNext: { [weak self] in self?.dismiss(animated: true) }))
        return close.actionName
    }

    /// The outlet views this controller declares with ``Outlet``, by name, for validating templates at start-up.
    package var declaredOutlets: [String: View.Type] {
        var outlets: [String: View.Type] = [:]
        var mirror: Mirror? = Mirror(reflecting: self)
        while let current = mirror {
            for child in current.children {
                if let outlet = child.value as? any OutletDeclaration {
                    outlets[outlet.name] = outlet.viewType
                }
            }
            mirror = current.superclassMirror
        }
        return outlets
    }
}

@available(*, unavailable)
extension ViewController: Sendable {}

/// The default template name of each view controller class that has asked for it.
private let derivedTemplateNames = Locked(TypeAnswers<String>())

/// The subjects behind `rx.viewDidLoad` and friends, each created when first observed: most screens observe one
/// or two of the five, and an event nobody observes needs no subject.
final class Lifecycle {
    enum Step: Int {
        case willAppear, didAppear, willDisappear, didDisappear
    }

    private var loaded: PublishSubject<Void>?
    /// The binders' `bindLoaded` calls registered before anything observed `rx.viewDidLoad`, in their order: run once
    /// after `viewDidLoad`, then let go; nil once sent (a binding registered later never runs, as a subject's late
    /// subscriber sees nothing) or dropped. A binder's binding goes here rather than through a subscription in the
    /// bag, which would keep its observer, its closure and its bag slot (and the subject) for the screen's life
    /// though it can never fire again (Benchmarks/History/39). One optional array: no flag beside it.
    private var loadActions: [() -> Void]?
    // Four fields rather than an array of four: no array allocated per screen.
    private var willAppear: PublishSubject<Bool>?
    private var didAppear: PublishSubject<Bool>?
    private var willDisappear: PublishSubject<Bool>?
    private var didDisappear: PublishSubject<Bool>?

    init(acceptsLoadActions: Bool) {
        loadActions = acceptsLoadActions ? [] : nil
    }

    /// Whether nothing observes these events and no action waits: the controller can let it go.
    var observesNothing: Bool {
        loadActions == nil && loaded == nil && willAppear == nil && didAppear == nil && willDisappear == nil
            && didDisappear == nil
    }

    var didLoad: PublishSubject<Void> {
        if let loaded { return loaded }
        let subject = PublishSubject<Void>()
        loaded = subject
        return subject
    }

    func subject(_ step: Step) -> PublishSubject<Bool> {
        if let subject = existing(step) { return subject }
        let subject = PublishSubject<Bool>()
        switch step {
        case .willAppear: willAppear = subject
        case .didAppear: didAppear = subject
        case .willDisappear: willDisappear = subject
        case .didDisappear: didDisappear = subject
        }
        return subject
    }

    private func existing(_ step: Step) -> PublishSubject<Bool>? {
        switch step {
        case .willAppear: willAppear
        case .didAppear: didAppear
        case .willDisappear: willDisappear
        case .didDisappear: didDisappear
        }
    }

    /// Runs `action` once after `viewDidLoad`, in order with `rx.viewDidLoad`'s subscribers: with
    /// ``loadActions`` while nothing observes `rx.viewDidLoad` (they all registered before any subscriber), through
    /// the subject once something does (after its earlier subscribers). Returns the subscription to keep in that
    /// case; nil when the action is kept here (or will never run: the view has loaded).
    func whenLoaded(_ action: @escaping () -> Void) -> (any Disposable)? {
        guard var actions = loadActions else { return nil }
        if let loaded { return loaded.subscribe(onNext: action) }
        // Taken out while it grows, rather than appended to in place: an access that spans the append (which may
        // release the old storage, and with it closures) would need a run-time exclusivity check on every access to
        // the actions (Benchmarks/History/65). Emptied first, so the array grows in place.
        loadActions = nil
        actions.append(action)
        loadActions = actions
        return nil
    }

    /// Drops the actions that have not run: the screen ended before its view loaded, as disposing their
    /// subscriptions would.
    func dropLoadActions() {
        loadActions = nil
    }

    func sendDidLoad() {
        // Taken before any runs: what an action subscribes or registers now is late, as for a subject.
        let actions = loadActions ?? []
        loadActions = nil
        let subject = loaded
        for action in actions { action() }
        subject?.onNext(())
    }

    func send(_ step: Step, _ animated: Bool) {
        existing(step)?.onNext(animated)
    }
}
