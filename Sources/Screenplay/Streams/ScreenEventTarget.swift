package import HTTPServer

/// Where a screen sends its events: its place on the stream shared by every tab of a browser
/// (``SharedStreamAttachment``).
///
/// Contract: sending never blocks; after ``close()`` (or the transport going away) sends are ignored and the
/// ``onClose(_:)`` handlers have run, once, with ``isClosed`` true by then (a screen forgets the streams that read as
/// closed when one of them tells it it closed). A send calls nothing on the screen before it returns: what it runs
/// there (close handlers, on an overflow) schedules its work on the screen's scheduler. A screen records an event in
/// its log after its streams have it (``EventLog/record(_:)``), and nothing may record one in between.
package protocol ScreenEventTarget: AnyObject, Sendable {
    /// Sends one of the screen's events, framed with its id. Returns whether the target is still open: false when it
    /// is closed (the event ignored), so that a screen forgets it without asking ``isClosed`` before every event.
    @discardableResult
    func send(_ event: FramedEvent) -> Bool
    /// Sends an event that is not the screen's and has no id (development events).
    func sendUnnumbered(event: String, data: String)
    /// Whether sends are ignored now.
    var isClosed: Bool { get }
    /// Stops the screen's events here.
    func close()
    /// Runs `handler` once when the target closes; at once if it is closed already.
    func onClose(_ handler: @escaping @Sendable () -> Void)
}
