import Foundation
import Reactive
import Screenplay
import ScreenplayTesting
import TestSupport
import Testing

/// A binder whose init forgot `bind()`: nothing would be bound, silently.
final class ForgetfulBinder: ViewControllerBinder {
    unowned let viewController: CounterViewController
    init(viewController: CounterViewController) { self.viewController = viewController }
    func dispose() {}
    func bindLoaded() {}
}

/// A binder that calls `bind()` or not, as it is told.
final class OptionalBinder: ViewControllerBinder {
    unowned let viewController: CounterViewController
    init(viewController: CounterViewController, binds: Bool) {
        self.viewController = viewController
        if binds { bind() }
    }
    func dispose() {}
    func bindLoaded() {}
}

/// A binder that binds, used by one test only: whether its type is in the binder-type cache tells how it was matched.
final class MatchedWithoutCacheBinder: ViewControllerBinder {
    unowned let viewController: CounterViewController
    init(viewController: CounterViewController) {
        self.viewController = viewController
        bind()
    }
    func dispose() {}
    func bindLoaded() {}
}

/// A binder of another type that binds, for the test of binders of two types.
final class OtherTypeBinder: ViewControllerBinder {
    unowned let viewController: CounterViewController
    init(viewController: CounterViewController) {
        self.viewController = viewController
        bind()
    }
    func dispose() {}
    func bindLoaded() {}
}

/// A bag item that is no binder, used by one test only.
final class UncachedPlainDisposable: Disposable {
    func dispose() {}
}

@Suite struct UnboundBinderTests {
    private static let make: @Sendable (ScreenRequest) -> CounterViewController = { _ in
        let viewController = CounterViewController()
        viewController.bag.insert(ForgetfulBinder(viewController: viewController))
        return viewController
    }

    /// Reported at the first page load (the page fails, the server goes on) and in the first harness test.
    @Test func aBinderWhoseBindWasNeverCalledFailsThePageLoadAndTheHarness() throws {
        let app = try OperationsTestApp(factory: Self.make)
        defer { app.stop() }
        #expect(try app.client.get("/counter").status == 500)
        let failed = try #require(app.log.events("screen.failed").first)
        #expect(
            failed["error"]?.contains(
                "ForgetfulBinder is in CounterViewController's bag but its bind() was never called") == true)
        #expect(try app.client.get("/healthz").status == 200)
        #expect(throws: ProgrammerError.self) { try ScreenHarness(templates: fixtureTemplates, factory: Self.make) }
    }

    /// The mistake reported when a screen of `factory` is built, or nil when it is built without one.
    static func mistakeReported(
        building factory: @escaping @Sendable (ScreenRequest) -> CounterViewController
    ) throws -> String? {
        do {
            _ = try ScreenHarness(templates: fixtureTemplates, factory: factory)
            return nil
        } catch let error as ProgrammerError {
            return error.mistake
        }
    }

    /// Each binder of a type takes a `bind()` of its own: of two binders of one type, the one that never bound is
    /// reported; two that bound are not.
    @Test func aBinderIsReportedEvenWhenAnotherOfItsTypeBound() throws {
        let make: @Sendable (Bool) -> @Sendable (ScreenRequest) -> CounterViewController = { secondBinds in
            { _ in
                let viewController = CounterViewController()
                viewController.bag.insert(OptionalBinder(viewController: viewController, binds: true))
                viewController.bag.insert(OptionalBinder(viewController: viewController, binds: secondBinds))
                return viewController
            }
        }
        let mistake = try #require(try Self.mistakeReported(building: make(false)))
        #expect(mistake.contains("OptionalBinder is in CounterViewController's bag but its bind() was never called"))
        let harness = try ScreenHarness(templates: fixtureTemplates, factory: make(true))
        #expect(harness.programmerErrors.isEmpty)
    }

    /// The first `bind()` on a controller is remembered apart from the later ones: binders of two types, put in the
    /// bag in another order than they bound, are each matched to a `bind()` of their type, and one more binder of a
    /// type whose binds are used up is reported.
    @Test func bindersOfTwoTypesAreMatchedWhateverTheOrderTheyBoundIn() throws {
        let make: @Sendable (Bool) -> @Sendable (ScreenRequest) -> CounterViewController = { lastBinds in
            { _ in
                let viewController = CounterViewController()
                let other = OtherTypeBinder(viewController: viewController)
                let first = OptionalBinder(viewController: viewController, binds: true)
                let last = OptionalBinder(viewController: viewController, binds: lastBinds)
                viewController.bag.insert(first)
                viewController.bag.insert(last)
                viewController.bag.insert(other)
                return viewController
            }
        }
        let mistake = try #require(try Self.mistakeReported(building: make(false)))
        #expect(mistake.contains("OptionalBinder is in CounterViewController's bag but its bind() was never called"))
        #expect(!mistake.contains("OtherTypeBinder"))
        let harness = try ScreenHarness(templates: fixtureTemplates, factory: make(true))
        #expect(harness.programmerErrors.isEmpty)
    }

    /// A binder whose `bind()` ran on the controller is matched by its type alone, without the process's cache of
    /// which types are binders (and its lock); an item of another type is looked up there, and a binder that did not
    /// bind still is (the tests above).
    @Test func aBoundBinderIsMatchedWithoutTheBinderTypeCache() throws {
        let harness = try ScreenHarness(templates: fixtureTemplates) { _ in
            let viewController = CounterViewController()
            viewController.bag.insert(MatchedWithoutCacheBinder(viewController: viewController))
            viewController.bag.insert(UncachedPlainDisposable())
            return viewController
        }
        #expect(harness.programmerErrors.isEmpty)
        #expect(!ViewController.hasCachedBinderAnswer(for: MatchedWithoutCacheBinder.self))
        #expect(ViewController.hasCachedBinderAnswer(for: UncachedPlainDisposable.self))
    }

    /// An outlet the template does not have, read after start-up (templates are checked then, so only code that
    /// reads outlets by name can do it): reported with the outlet's name, and a stand-in view answers.
    @Test func aMissingOutletIsReportedNotATrap() throws {
        let factory = CounterFactory()
        let harness = try ScreenHarness(templates: fixtureTemplates) { factory.make($0) }
        let title = harness.onScreen(CounterViewController.self) { controller -> String in
            let missing: Label = controller.view.outlet("nothingHere")
            missing.text = "set on a stand-in"
            let mistyped: Button = controller.view.outlet("countLabel")
            return mistyped.title
        }
        #expect(title == "")
        let mistakes = harness.programmerErrors.map(\.mistake)
        #expect(mistakes.contains { $0.contains("The outlet 'nothingHere' was not found") })
        #expect(mistakes.contains { $0.contains("The outlet 'countLabel' is a Label, not a Button") })
    }
}
