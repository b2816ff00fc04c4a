import Foundation

/// Polls `condition` every 5 ms until it holds or `seconds` pass, and says whether it held: for work
/// another thread finishes (a server's handler, a screen's queue, the store's change feed).
public func eventually(within seconds: Double = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(5_000)
    }
    return condition()
}
