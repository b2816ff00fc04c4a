import FoundationEssentials
import Primitives

/// A mistake in app code that the framework reports instead of trapping: in a server a trap ends every user's page,
/// so the mistake fails the screen it happened on, with a message naming what went wrong and the fix.
///
/// Screenplay installs the handler that fails the screen (``ProgrammerErrors/install(_:)``): the page gets the app's
/// error page (the development overlay with `--dev`) and the log an error line; the server goes on serving everyone
/// else. Without a handler, the message goes to standard error.
public struct ProgrammerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, naming the type whose code did it.
    public let mistake: String
    /// What to change.
    public let fix: String

    /// Creates the error.
    public init(mistake: String, fix: String) {
        self.mistake = mistake
        self.fix = fix
    }

    /// `mistake Fix: fix`.
    public var description: String { "\(mistake) Fix: \(fix)" }
}

/// Where programmer errors go.
package enum ProgrammerErrors {
    private static let handler = Locked<(@Sendable (ProgrammerError, ScreenScheduler?) -> Void)?>(nil)

    /// Sends every report to `handler`, with the screen scheduler it was made on (nil off any screen).
    package static func install(_ handler: @escaping @Sendable (ProgrammerError, ScreenScheduler?) -> Void) {
        self.handler.withLock { $0 = handler }
    }

    /// Reports `error` from the calling code: to the handler of the screen it runs on, if that screen has one, else to
    /// the installed handler.
    package static func report(_ error: ProgrammerError) {
        let screen = ScreenScheduler.current
        if let screen, screen.handle(error) { return }
        guard let handler = handler.withLock({ $0 }) else {
            StandardStream.error.write("programmer error: \(error)\n")
            return
        }
        handler(error, screen)
    }

    /// `count`, or 0 with a reported mistake when it is negative: a count given to `operation`.
    package static func checkedCount(_ count: Int, _ operation: String) -> Int {
        guard count < 0 else { return count }
        report(
            ProgrammerError(
                mistake: "\(operation) was given \(count), a negative count; it uses 0.",
                fix: "pass a count of 0 or more."))
        return 0
    }
}
