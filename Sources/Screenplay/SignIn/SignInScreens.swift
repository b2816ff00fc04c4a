internal import FoundationEssentials
internal import Primitives
internal import Reactive
internal import ViewKit

/// The sign-in screen at `/signin`: a name, a password, and the `signIn` action.
final class SignInViewController: ViewController {
    @Outlet("statusLabel") var statusLabel: Label
    @Outlet("nameField") var nameField: TextField
    @Outlet("passwordField") var passwordField: TextField
    @Outlet("signInButton") var signInButton: Button
}

/// The sign-out screen at `/signout`: who is signed in, and the `signOut` action.
final class SignOutViewController: ViewController {
    @Outlet("messageLabel") var messageLabel: Label
    @Outlet("signOutButton") var signOutButton: Button
    @Outlet("signInPageLink") var signInLink: View
}

/// The sign-in's state and intents: what was typed, and what the last attempt said.
final class SignInDriver {
    private let signIn: SignIn
    private let request: ScreenRequest
    private let next: String
    private let answer: (Cookie, String) -> Void
    private var name = ""
    private var password = ""
    private let statusRelay = BehaviorRelay<String?>(value: nil)
    private let clearRelay = BehaviorRelay(value: "")

    /// `answer` sets the cookie on the action's answer and navigates to the URL.
    init(signIn: SignIn, request: ScreenRequest, answer: @escaping (Cookie, String) -> Void) {
        self.signIn = signIn
        self.request = request
        // The page named by `next` (the guard's redirect), else the page whose Sign in link was followed.
        next =
            request.query["next"].flatMap(SignIn.safeReturnURL)
            ?? SignIn.pagePath(referer: request.headers["referer"], host: request.headers["host"])
            .flatMap(SignIn.safeReturnURL) ?? "/"
        self.answer = answer
    }

    /// What the last attempt said; nil before one.
    var status: Driver<String?> { statusRelay.asDriver() }
    /// The password field's value from the server: empty after each attempt, so that a password is never sent back.
    var passwordValue: Driver<String> { clearRelay.asDriver() }

    func setName(_ text: String) { name = text.trimmingWhitespace() }
    func setPassword(_ text: String) { password = text }

    func submit() {
        defer {
            password = ""
            clearRelay.accept("")
        }
        guard !name.isEmpty, !password.isEmpty else {
            statusRelay.accept("Enter your name and your password.")
            return
        }
        let wait = signIn.throttle.wait(name: name, address: request.remoteAddress)
        guard wait == 0 else {
            statusRelay.accept("Too many attempts. Try again in \(wait) second\(wait == 1 ? "" : "s").")
            return
        }
        guard signIn.accounts.verify(name: name, password: password) else {
            signIn.throttle.recordFailure(name: name, address: request.remoteAddress)
            statusRelay.accept("That name and password do not match an account.")
            return
        }
        signIn.throttle.recordSuccess(name: name)
        statusRelay.accept(nil)
        answer(signIn.cookie(signingIn: name, secure: request.isSecure), next)
    }
}

final class SignInBinder: ViewControllerBinder {
    private weak var controller: SignInViewController?
    private let driver: SignInDriver
    var viewController: SignInViewController { controller ?? SignInViewController() }

    init(viewController: SignInViewController, driver: SignInDriver) {
        controller = viewController
        self.driver = driver
        bind()
    }

    func dispose() {}

    func bindLoaded() {
        guard let viewController = controller else { return }
        viewController.title = "Sign in"
        let statusLabel = viewController.statusLabel
        viewController.bag.insert(
            driver.status.drive(onNext: { status in
                statusLabel.text = status ?? ""
                statusLabel.isHidden = status == nil
            }),
            driver.passwordValue.drive(viewController.passwordField.rx.text),
            viewController.nameField.rx.text.orEmpty.changed.bind(onNext: driver.setName),
            viewController.passwordField.rx.text.orEmpty.changed.bind(onNext: driver.setPassword),
            viewController.signInButton.rx.tap.bind(onNext: driver.submit)
        )
    }
}

final class SignOutBinder: ViewControllerBinder {
    private weak var controller: SignOutViewController?
    private let user: String?
    private let signOut: () -> Void
    var viewController: SignOutViewController { controller ?? SignOutViewController() }

    init(viewController: SignOutViewController, user: String?, signOut: @escaping () -> Void) {
        controller = viewController
        self.user = user
        self.signOut = signOut
        bind()
    }

    func dispose() {}

    func bindLoaded() {
        guard let viewController = controller else { return }
        viewController.title = "Sign out"
        viewController.messageLabel.text = user.map { "You are signed in as \($0)." } ?? "You are not signed in."
        viewController.signOutButton.isHidden = user == nil
        viewController.signInLink.isHidden = user != nil
        viewController.bag.insert(viewController.signOutButton.rx.tap.bind(onNext: signOut))
    }
}

extension SignIn {
    /// The built-in templates of the sign-in screens.
    static let templates = [
        "SignIn": """
        <section class="sign-in">
          <h1>Sign in</h1>
          <p class="status form-status" role="status" data-outlet="statusLabel" data-announce hidden></p>
          <form class="sign-in-form" novalidate>
            <input data-outlet="nameField" name="name" data-label="Name" autocomplete="username" autocapitalize="none" spellcheck="false">
            <input data-outlet="passwordField" name="password" data-label="Password" type="password" autocomplete="current-password">
            <div class="form-actions"><button class="primary" data-outlet="signInButton" data-action="signIn">Sign in</button></div>
          </form>
        </section>
        """,
        "SignOut": """
        <section class="sign-out">
          <h1>Sign out</h1>
          <p data-outlet="messageLabel"></p>
          <form class="sign-out-form" novalidate>
            <div class="form-actions"><button class="primary" data-outlet="signOutButton" data-action="signOut">Sign out</button></div>
          </form>
          <p><a data-outlet="signInPageLink" href="/signin">Sign in</a></p>
        </section>
        """,
    ]

    /// Fills the layout's `signedIn`, `userName` and `signInLink` outlets of a page at `url` for `user`, and shows
    /// its `account` outlet (the built-in layout's account bar, hidden without a sign-in). Only the outlets `layout`
    /// has are looked up (a missing one would walk the whole page, the screen's views included), and only to change
    /// them: a signed-out page as the layout has it costs nothing. The Sign in link stays `/signin`; the sign-in
    /// screen comes back to the page it was followed from (its `Referer`).
    func decorate(_ page: View, layout: Template, user: String?, url: String) {
        if layout.hasOutlet("account") { page.outletIfPresent("account")?.isHidden = false }
        let onSignIn = url == Self.path || url.hasPrefix(Self.path + "?")
        guard user != nil || onSignIn else { return }
        if layout.hasOutlet("signedIn") { page.outletIfPresent("signedIn")?.isHidden = user == nil }
        if layout.hasOutlet("userName"), let user { (page.outletIfPresent("userName") as? Label)?.text = user }
        // Hidden when signed in, and on the sign-in screen itself.
        if layout.hasOutlet("signInLink") { page.outletIfPresent("signInLink")?.isHidden = true }
    }
}

extension Application {
    /// Adds the sign-in screen (`/signin`) and the sign-out screen (`/signout`) of `signIn`, and fills every page's
    /// signed-in outlets (see ``SignIn``). Put screens behind it with `guard: signIn.required`.
    public func use(_ signIn: SignIn) throws {
        screens.use(signIn)
        try screen(SignIn.path, SignInViewController.self) { request in
            let viewController = SignInViewController()
            let driver = SignInDriver(signIn: signIn, request: request) { [weak viewController] cookie, next in
                viewController?.setCookie(cookie)
                viewController?.navigationController?.push(next)
            }
            viewController.bag.insert(SignInBinder(viewController: viewController, driver: driver))
            return viewController
        }
        try screen("/signout", SignOutViewController.self) { request in
            let viewController = SignOutViewController()
            let secure = request.isSecure
            let binder = SignOutBinder(viewController: viewController, user: signIn.user(for: request)) {
                [weak viewController] in
                viewController?.setCookie(signIn.signOutCookie(secure: secure))
                viewController?.navigationController?.push("/")
            }
            viewController.bag.insert(binder)
            return viewController
        }
    }
}
