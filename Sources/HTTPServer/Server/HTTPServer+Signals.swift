import Glibc

extension HTTPServer {
    /// Blocks `SIGINT` and `SIGTERM` in the calling thread and every thread it starts later, and
    /// ignores `SIGPIPE`. Call it first thing in `main`, before anything starts a thread, so that
    /// ``waitForTerminationSignal()`` is the only place these signals arrive.
    public static func blockTerminationSignals() {
        signal(SIGPIPE, SIG_IGN)
        _ = SignalMask.blockTermination()
    }

    /// Blocks the calling thread until the process receives `SIGINT` or `SIGTERM`, and returns
    /// the signal number. Stop the server after it returns.
    ///
    /// The signals are blocked here too (and the server's own threads never take them), but threads
    /// started earlier by other code may not block them; call ``blockTerminationSignals()`` at the
    /// top of `main` to be sure.
    @discardableResult
    public static func waitForTerminationSignal() -> Int32 {
        blockTerminationSignals()
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        var received: Int32 = 0
        while sigwait(&set, &received) != 0 {}
        return received
    }
}
