#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A program a test starts, talks to and waits for, started with `posix_spawn`.
///
/// Tests use this rather than Foundation's `Process`: before it starts a program, `Process.run()`
/// lists `/proc/self/fd` and copies every entry's name with a fixed 256-byte read, which runs past
/// the end of the directory buffer when an entry is the buffer's last. With the hundreds of
/// sockets a parallel test run holds open that happens now and then, and AddressSanitizer stops the
/// whole suite there (heap-buffer-overflow in `findMaximumOpenFromProcSelfFD`).
///
/// The child gets descriptors 0–2 only (the tests' sockets stay with the tests, so a peer still
/// sees a test close its end; give a long-running child `.discard` for its output streams, or a test process that
/// dies leaves it holding the test runner's pipe open, and the runner waits for it), default signal dispositions and an empty signal mask (the tests
/// block SIGTERM and ignore SIGPIPE). A child still running when its `ChildProcess` goes away is
/// killed and reaped, so a failed expectation leaves no server behind.
///
/// ```swift
/// let server = try ChildProcess("/usr/bin/python3", ["-m", "http.server", "0"], standardOutput: .pipe)
/// let banner = server.readOutput()
/// server.send(SIGTERM)
/// #expect(server.wait() == .exited(0))
/// ```
public final class ChildProcess {
    /// Where one of the child's output streams goes.
    public enum Output: Sendable {
        /// The test process's own stream.
        case inherit
        /// `/dev/null`.
        case discard
        /// A pipe the test reads with `readOutput()` (standard output only).
        case pipe
    }

    /// How a child ended.
    public enum Termination: Equatable, Sendable, CustomStringConvertible {
        /// It called `exit` with this status.
        case exited(Int32)
        /// A signal ended it.
        case signaled(Int32)

        public var description: String {
            switch self {
            case .exited(let status): "exited with status \(status)"
            case .signaled(let signal): "killed by signal \(signal)"
            }
        }
    }

    /// Why a child could not be started.
    public struct SpawnError: Error, CustomStringConvertible {
        /// The program that was to run.
        public let executable: String
        /// The `errno` value `posix_spawn` returned.
        public let code: Int32

        public var description: String { "cannot start \(executable): \(String(cString: strerror(code)))" }
    }

    /// The child's process id.
    public let pid: Int32
    private var outputReader: Int32 = -1
    private var termination: Termination?

    /// Starts `executable` (a path; no `PATH` search) with `arguments`, in this process's environment.
    public init(
        _ executable: String, _ arguments: [String] = [], standardOutput: Output = .inherit,
        standardError: Output = .inherit
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var pipeEnds: [Int32] = [-1, -1]
        if standardOutput == .pipe {
            guard pipe(&pipeEnds) == 0 else { throw SpawnError(executable: executable, code: errno) }
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDOUT_FILENO)
        } else if standardOutput == .discard {
            posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        }
        if standardError == .discard {
            posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        }
        precondition(standardError != .pipe, "only standard output can be read through a pipe")
        Self.closeFrom(3, in: &actions)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var child: pid_t = 0
        let code = posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        if pipeEnds[1] >= 0 { close(pipeEnds[1]) }
        guard code == 0 else {
            if pipeEnds[0] >= 0 { close(pipeEnds[0]) }
            throw SpawnError(executable: executable, code: code)
        }
        pid = child
        outputReader = pipeEnds[0]
    }

    deinit {
        if isRunning {
            kill(pid, SIGKILL)
            _ = wait()
        }
        if outputReader >= 0 { close(outputReader) }
    }

    /// The next bytes the child wrote to its standard output (`.pipe`), waiting for some; empty once
    /// the child closed it.
    public func readOutput() -> [UInt8] {
        precondition(outputReader >= 0, "standard output was not a pipe")
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(outputReader, $0.baseAddress, $0.count) }
            if count >= 0 { return Array(buffer.prefix(count)) }
            if errno != EINTR { return [] }
        }
    }

    /// Sends `signal` to the child.
    public func send(_ signal: Int32) {
        if termination == nil { kill(pid, signal) }
    }

    /// Whether the child has not ended yet (reaping it if it has).
    public var isRunning: Bool {
        if termination != nil { return false }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return true }
        termination = Self.termination(status)
        return false
    }

    /// Waits for the child to end and says how it did.
    @discardableResult
    public func wait() -> Termination {
        if let termination { return termination }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let ended = Self.termination(status)
        termination = ended
        return ended
    }

    private static func termination(_ status: Int32) -> Termination {
        // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift does not import.
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
    }

    /// Closes every descriptor from `lowest` up in the child. glibc has had
    /// `posix_spawn_file_actions_addclosefrom_np` since 2.34, but its header declares it only for
    /// `_GNU_SOURCE`, which Swift's Glibc module does not define, so it is looked up by name.
    private static func closeFrom(_ lowest: Int32, in actions: inout posix_spawn_file_actions_t) {
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        else { return }
        _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, lowest)
    }
}
