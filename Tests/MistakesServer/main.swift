import Foundation
import Screenplay

// A server whose screens each make one programmer error, for the test that the process survives them all
// (ProcessSurvivesMistakesTests): `MistakesServer PORT` serves until SIGTERM, logging to standard error.

final class PlainViewController: ViewController {
    @Outlet("label") var label: Label
    @Outlet("list") var list: ListView
    @Outlet("button") var button: Button
}

/// Binds the label, then makes the mistake its route names when the button is tapped or the view loads.
final class MistakeBinder: ViewControllerBinder {
    unowned let viewController: PlainViewController
    let mistake: String

    init(viewController: PlainViewController, mistake: String, callsBind: Bool = true) {
        self.viewController = viewController
        self.mistake = mistake
        if callsBind { bind() }
    }

    func dispose() {}

    func bindLoaded() {
        viewController.label.text = "ok"
        switch mistake {
        case "duplicates":
            viewController.list.update(with: [1, 1, 2], id: { $0 }, makeRow: { _ in Label(tagName: "li") }) { _, _ in }
        default:
            break
        }
        viewController.bag.insert(
            viewController.button.rx.tap.bind(onNext: { [unowned self] in
                // At run time, after the page loaded: an outlet the template does not have.
                let missing: Label = viewController.view.outlet("nothing")
                missing.text = mistake
            }))
    }
}

struct FactoryFailure: Error, CustomStringConvertible {
    var description: String { "the factory could not build the screen" }
}

let root = NSTemporaryDirectory() + "screenplay-mistakes-\(getpid())"
try FileManager.default.createDirectory(atPath: root + "/Templates", withIntermediateDirectories: true)
try Data(
    #"<section><p data-outlet="label"></p><ul data-view="ListView" data-outlet="list"></ul><button data-outlet="button" data-action="tap">Tap</button></section>"#
        .utf8
).write(to: URL(fileURLWithPath: root + "/Templates/Plain.html"))
defer { try? FileManager.default.removeItem(atPath: root) }

var options = ApplicationOptions(program: "mistakes")
options.root = root
options.port = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 0
options.accessLog = false
var operations = options.operations
// The log on standard output, which the test reads through a pipe.
operations.logger = Logger(level: .info, format: .text) { line in
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
let app = try Application(
    root: options.root, server: options.server, sessions: options.sessions, operations: operations)
for mistake in ["ok", "unkept", "unbound", "duplicates", "throws", "outlet"] {
    try app.screen("/" + mistake, PlainViewController.self) { _ in
        let viewController = PlainViewController()
        switch mistake {
        case "unkept":
            _ = MistakeBinder(viewController: viewController, mistake: mistake)
        case "unbound":
            viewController.bag.insert(MistakeBinder(viewController: viewController, mistake: mistake, callsBind: false))
        case "throws":
            throw FactoryFailure()
        default:
            viewController.bag.insert(MistakeBinder(viewController: viewController, mistake: mistake))
        }
        return viewController
    }
}
try app.run(program: "mistakes")
