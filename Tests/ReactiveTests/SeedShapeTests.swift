import Reactive
import Testing

// Minimal stand-ins for the seed's UIKit, RxViewController and app types, so that the seed's binder
// can be compiled here unchanged against this module.

protocol DisposeContainer {
    var bag: DisposeBag { get }
}

class SeedViewController: ReactiveCompatible {
    let viewDidLoadEvents = PublishSubject<Void>()
    let viewWillAppearEvents = PublishSubject<Bool>()
    var log: [String] = []
}

extension Reactive where Base: SeedViewController {
    var viewDidLoad: ControlEvent<Void> { ControlEvent(events: base.viewDidLoadEvents) }
    var viewWillAppear: ControlEvent<Bool> { ControlEvent(events: base.viewWillAppearEvents) }
}

final class SeedButton: ReactiveCompatible {
    let taps = PublishSubject<Void>()
}

extension Reactive where Base: SeedButton {
    var tap: ControlEvent<Void> { ControlEvent(events: base.taps) }
}

struct MovieDetailData: Sendable, Equatable {
    var title: String
}

final class MovieDetailViewController: SeedViewController, DisposeContainer {
    let bag = DisposeBag()
    let backButton = SeedButton()
    var statusBarStyle = "default"
}

protocol MovieDetailDriving {
    var data: Driver<MovieDetailData> { get }
    func close()
}

final class MovieDetailDriver: MovieDetailDriving {
    let data: Driver<MovieDetailData>
    private(set) var closeCount = 0

    init(data: Driver<MovieDetailData>) {
        self.data = data
    }

    func close() {
        closeCount += 1
    }
}

// The seed's protocol and extension, verbatim but for the stand-in base class.

protocol ViewControllerBinder: Disposable {
    associatedtype DisposeViewControllerContainer: SeedViewController, DisposeContainer

    var viewController: DisposeViewControllerContainer { get }

    func bindLoaded()
}

extension ViewControllerBinder where Self: AnyObject {
    func bind() {
        viewController.rx.viewDidLoad
            .subscribe(onNext: unowned(self, in: Self.bindLoaded))
            .disposed(by: viewController.bag)
    }
}

// The seed's binder; `bindLoaded` is verbatim, the private methods record what they are asked. The
// package builds with the ExistentialAny upcoming feature, so the existential is spelled `any`.

final class MovieDetailBinder: ViewControllerBinder {
    unowned let viewController: MovieDetailViewController
    private let driver: any MovieDetailDriving

    init(
        viewController: MovieDetailViewController,
        driver: any MovieDetailDriving
    ) {
        self.viewController = viewController
        self.driver = driver
        bind()
    }

    func dispose() {}

    func bindLoaded() {
        // 1. Style
        viewController.statusBarStyle = "lightContent"

        // 2. State
        viewController.bag.insert(
            viewController.rx.viewWillAppear
                .bind(onNext: unowned(self, in: MovieDetailBinder.viewWillAppear)),
            driver.data
                .drive(onNext: unowned(self, in: MovieDetailBinder.configure))
        )

        // 3. Action
        viewController.bag.insert(
            viewController.backButton.rx.tap
                .bind(onNext: driver.close)
        )
    }

    private func viewWillAppear(_ animated: Bool) {
        viewController.log.append("viewWillAppear(\(animated))")
    }

    private func configure(_ data: MovieDetailData) {
        ScreenScheduler.current?.assertCurrent("configure")
        viewController.log.append("configure(\(data.title))")
    }
}

/// What a screen session would own.
final class SeedScreen {
    var viewController: MovieDetailViewController?
    var binder: MovieDetailBinder?
    let driver: MovieDetailDriver

    init(data: Driver<MovieDetailData>) {
        let viewController = MovieDetailViewController()
        driver = MovieDetailDriver(data: data)
        binder = MovieDetailBinder(viewController: viewController, driver: driver)
        self.viewController = viewController
    }
}

extension ReactiveTests {
    @Suite struct SeedShapeTests {
        @Test func seedBinderBindsOnLoadAndDeliversOnTheScreenScheduler() {
            expectNoLeaks {
                let scheduler = ScreenScheduler(label: "seed")
                let store = BehaviorRelay(value: MovieDetailData(title: "Alien"))
                let screen = scheduler.sync {
                    ScreenConfined(SeedScreen(data: store.asDriver()), on: scheduler)
                }

                let afterLoad = scheduler.sync { () -> [String] in
                    let viewController = screen.value.viewController!
                    viewController.viewDidLoadEvents.onNext(())
                    viewController.viewWillAppearEvents.onNext(true)
                    return viewController.log + [viewController.statusBarStyle]
                }
                #expect(afterLoad == ["configure(Alien)", "viewWillAppear(true)", "lightContent"])

                // A store change on another thread reaches the screen on its own scheduler.
                store.accept(MovieDetailData(title: "Aliens"))
                let afterChange = scheduler.sync { screen.value.viewController!.log.last }
                #expect(afterChange == "configure(Aliens)")

                let closes = scheduler.sync { () -> Int in
                    screen.value.viewController!.backButton.taps.onNext(())
                    return screen.value.driver.closeCount
                }
                #expect(closes == 1)

                // Tear the screen down on its scheduler: the bag disposes every binding.
                scheduler.sync {
                    screen.value.binder = nil
                    screen.value.viewController = nil
                }
                store.accept(MovieDetailData(title: "Alien 3"))
                scheduler.sync {}
            }
        }
    }
}
