import Foundation
import Reactive
import Screenplay
import Synchronization
import ViewKit

/// A profile form with a file field: the uploads tests' screen. Its binder records every `rx.file` event.
final class AvatarViewController: ViewController {
    @Outlet("nameField") var nameField: TextField
    @Outlet("avatarField") var avatarField: FileField
    @Outlet("saveButton") var saveButton: Button
    @Outlet("lastEventLabel") var lastEventLabel: Label
}

/// What the avatar screens' binders heard, across screens: one line per `rx.file` event, and the finished files'
/// bytes.
final class AvatarLog: Sendable {
    let events = Mutex<[String]>([])
    let files = Mutex<[[UInt8]]>([])

    func make() -> AvatarViewController {
        let viewController = AvatarViewController()
        viewController.bag.insert(AvatarBinder(viewController: viewController, log: self))
        return viewController
    }
}

final class AvatarBinder: ViewControllerBinder {
    unowned let viewController: AvatarViewController
    private let log: AvatarLog

    init(viewController: AvatarViewController, log: AvatarLog) {
        self.viewController = viewController
        self.log = log
        bind()
    }

    func dispose() {}

    func bindLoaded() {
        viewController.bag.insert(
            viewController.avatarField.rx.file.bind(onNext: unowned(self, in: AvatarBinder.fileEvent)),
            viewController.saveButton.rx.tap.bind(onNext: {})
        )
    }

    private func fileEvent(_ event: FileEvent) {
        let line: String
        switch event {
        case .started(let upload): line = "started \(upload.filename) \(upload.received)/\(upload.length)"
        case .progress(let upload): line = "progress \(upload.received)/\(upload.length)"
        case .finished(let file):
            line = "finished \(file.filename) \(file.length)"
            if let bytes = try? file.contents() { log.files.withLock { $0.append(bytes) } }
        case .failed(_, let message): line = "failed \(message)"
        }
        log.events.withLock { $0.append(line) }
        viewController.lastEventLabel.text = line
    }
}
