import Screenplay

final class CounterViewController: ViewController {
    @Outlet("countLabel") var countLabel: Label
    @Outlet("addButton") var addButton: Button
}

final class CounterDriver {
    private let relay = BehaviorRelay(value: 0)
    var count: Driver<Int> { relay.asDriver() }
    func add() { relay.accept(relay.value + 1) }
}

final class CounterBinder: ViewControllerBinder {
    unowned let viewController: CounterViewController
    private let driver: CounterDriver
    init(viewController: CounterViewController, driver: CounterDriver) {
        self.viewController = viewController
        self.driver = driver
        bind()
    }
    func dispose() {}
    func bindLoaded() {
        viewController.bag.insert(
            driver.count.map(String.init).drive(viewController.countLabel.rx.text),
            viewController.addButton.rx.tap.bind(onNext: driver.add)
        )
    }
}

let app = try Application(options: .fromCommandLine(program: "counter"))  // --port, --dev, --help, …
try app.screen("/counter", CounterViewController.self) { _ in
    let viewController = CounterViewController()
    viewController.bag.insert(CounterBinder(viewController: viewController, driver: CounterDriver()))
    return viewController
}
try app.run()  // serves until Ctrl-C or SIGTERM
