import Foundation
import ScreenplayTesting
import TestSupport
import Testing

/// App code's mistakes fail one screen, never the process: a server whose screens each make one (run as a child
/// process, `Tests/MistakesServer`) answers each with a failed page, goes on serving its healthy screen, and logs the
/// screen's class, the mistake and the fix.
@Suite struct ProcessSurvivesMistakesTests {
    private var executable: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("MistakesServer").path
    }

    @Test func everyMistakeFailsItsScreenAndTheServerGoesOn() throws {
        try #require(FileManager.default.isExecutableFile(atPath: executable))
        let process = try ChildProcess(executable, ["0"], standardOutput: .pipe, standardError: .discard)
        var output = ""
        while !output.contains("(Ctrl-C to stop)") {
            let bytes = process.readOutput()
            try #require(!bytes.isEmpty, "the server stopped before serving: \(output)")
            output += String(decoding: bytes, as: UTF8.self)
        }
        let port = try #require(
            output.range(of: "http://localhost:").flatMap { Int(output[$0.upperBound...].prefix { $0.isNumber }) })
        let client = LiveClient(port: port)
        #expect(try client.get("/ok").status == 200)
        for mistake in ["unkept", "unbound", "duplicates", "throws"] {
            #expect(try client.get("/" + mistake).status == 500, "\(mistake)")
            #expect(try client.get("/ok").status == 200, "after \(mistake)")
        }
        // A mistake at run time, in an action's handler: the action answers, the screen and the server go on.
        let page = LivePage(try client.get("/outlet"))
        let tap = try client.post(
            page.actionPath("tap")!, form: ["csrf": page.csrfToken!], headers: ["X-Requested-With": "fetch"])
        #expect(tap.status == 204)
        #expect(try client.get("/ok").status == 200)

        process.send(SIGTERM)
        while true {
            let bytes = process.readOutput()
            if bytes.isEmpty { break }
            output += String(decoding: bytes, as: UTF8.self)
        }
        #expect(process.wait() == .exited(0))
        let lines = output.split(separator: "\n").map(String.init)
        func logged(_ event: String, _ parts: String...) -> Bool {
            lines.contains { line in line.contains(event) && parts.allSatisfy { line.contains($0) } }
        }
        #expect(logged("screen.failed", "PlainViewController", "was released", "Fix:"))
        #expect(logged("screen.failed", "PlainViewController", "bind() was never called", "Fix:"))
        #expect(logged("screen.failed", "PlainViewController", "share an identity", "Fix:"))
        #expect(logged("screen.failed", "PlainViewController", "the factory could not build the screen"))
        // Logged by the log its type's screens share, under the session whose screen made it.
        let session = try #require(page.sessionID)
        #expect(
            logged(
                "screen.programmer_error", "session=\(session) ", "PlainViewController",
                "outlet 'nothing' was not found",
                "Fix:"))
    }
}
