import Foundation
import TestSupport
import Testing

/// The `movies` executable's answers to `--help` and to a command line it cannot run, as a shell sees them.
@Suite struct CommandLineTests {
    /// The `movies` executable beside this test bundle.
    private var moviesExecutable: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("movies")
            .path
    }

    /// Everything the child writes to standard output, once it has ended.
    private func run(_ arguments: [String]) throws -> (output: String, termination: ChildProcess.Termination) {
        let process = try ChildProcess(moviesExecutable, arguments, standardOutput: .pipe, standardError: .discard)
        var output: [UInt8] = []
        while case let bytes = process.readOutput(), !bytes.isEmpty { output += bytes }
        return (String(decoding: output, as: UTF8.self), process.wait())
    }

    @Test func helpPrintsTheUsageOnceOnStandardOutputAndSucceeds() throws {
        try #require(FileManager.default.isExecutableFile(atPath: moviesExecutable))
        let (output, termination) = try run(["--help"])
        #expect(termination == .exited(0))
        #expect(output.hasPrefix("usage: movies [options]\n"))
        #expect(output.hasSuffix("--help               show this help\n"))
        #expect(output.components(separatedBy: "usage: movies").count == 2)
    }

    @Test func anUnknownFlagIsAUsageErrorThatStartsNothing() throws {
        try #require(FileManager.default.isExecutableFile(atPath: moviesExecutable))
        let (output, termination) = try run(["--no-such-flag"])
        #expect(termination == .exited(64))
        #expect(output.isEmpty)
    }

    @Test func anUnreachablePostgreSQLIsAClearErrorAndANonZeroExitThatNeverShowsThePassword() throws {
        try #require(FileManager.default.isExecutableFile(atPath: moviesExecutable))
        // Standard error merged into the pipe: that is where the message goes.
        let process = try ChildProcess(
            "/bin/sh",
            [
                "-c", "exec \"$0\" --port 0 --root \"$1\" --database \"$2\" 2>&1", moviesExecutable,
                repositoryRoot.path, "postgresql://someone:hunter2@/movies?host=/nonexistent-folder",
            ], standardOutput: .pipe, standardError: .discard)
        var output: [UInt8] = []
        while case let bytes = process.readOutput(), !bytes.isEmpty { output += bytes }
        let text = String(decoding: output, as: UTF8.self)
        #expect(process.wait() == .exited(1))
        #expect(text.contains("connecting to PostgreSQL at /nonexistent-folder:5432 as someone"))
        #expect(!text.contains("hunter2"))
    }
}
