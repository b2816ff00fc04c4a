import Foundation
import Reactive
import Screenplay
import ScreenplayTesting
import Testing
import ViewKit

/// The README's "A screen in twenty lines", verbatim but for the enclosing namespace: it must compile and work.
enum ReadmeExample {
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

    static let template = """
        <section><p data-outlet="countLabel">0</p><button data-outlet="addButton" data-action="add">Add</button></section>
        """
}

@Suite struct ReadmeExampleTests {
    @Test func theReadmeScreenCountsTapsWithOneSmallPatchEach() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/Templates", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/Public", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: fixtureTemplates + "/layout.html", toPath: root + "/Templates/layout.html")
        try ReadmeExample.template.write(toFile: root + "/Templates/Counter.html", atomically: true, encoding: .utf8)

        // The registration the README shows validates the outlets against the template.
        let app = try Application(root: root)
        try app.screen("/counter", ReadmeExample.CounterViewController.self) { _ in
            let viewController = ReadmeExample.CounterViewController()
            viewController.bag.insert(
                ReadmeExample.CounterBinder(viewController: viewController, driver: ReadmeExample.CounterDriver()))
            return viewController
        }

        let harness = try ScreenHarness(templates: root + "/Templates") { _ in
            let viewController = ReadmeExample.CounterViewController()
            viewController.bag.insert(
                ReadmeExample.CounterBinder(viewController: viewController, driver: ReadmeExample.CounterDriver()))
            return viewController
        }
        #expect(harness.screenHTML.contains(">0</p>"))
        #expect(harness.tap("add"))
        #expect(harness.tap("add"))
        #expect(harness.patches.count == 2)
        #expect(harness.screenHTML.contains(">2</p>"))
        let bytes = harness.events.map { $0.encoded(id: 1).count }
        #expect(bytes.allSatisfy { $0 < 120 })
    }
}
