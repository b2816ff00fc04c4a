internal import Reactive

/// Logs the programmer errors that the live screens of one view controller type make once they are built (in a
/// binder's callback, say): one for each type, shared by all its screens (``ScreenRouter``), as a screen's
/// scheduler's handler.
///
/// Contract: ``log(_:)`` runs on the scheduler of the screen that made the mistake (``ProgrammerErrors/report(_:)``
/// hands it to that scheduler's handler), and a live screen's scheduler is labelled with its session's id
/// (`ScreenRouter.makeSession`): the line names that session. A closure over the session's id, the type's name and
/// the logger was an object for every live screen's life (Benchmarks/History/51-screen-memory-6.md).
final class ScreenMistakeLog: Sendable {
    private let logger: Logger
    /// The view controller's type name, as the route names it.
    private let screenName: String

    init(logger: Logger, screenName: String) {
        self.logger = logger
        self.screenName = screenName
    }

    /// Logs `mistake` with the session whose scheduler runs this code; the screen goes on.
    func log(_ mistake: ProgrammerError) {
        let session = ScreenScheduler.current?.label ?? ""
        logger.log(
            .error, "screen.programmer_error", ["session": session, "screen": screenName, "error": "\(mistake)"])
    }
}
