import Foundation
import HTTPServer
import Testing

/// Traversal and encoding tricks against `/public/`: every one answers 404, leaks nothing outside the directory and
/// leaves the server serving.
@Suite struct StaticFileAttackTests {
    /// Targets a hostile client might send to reach `secret.txt` beside `Public`, a dotfile, or a file through a
    /// link leading out. Kept apart from `StaticFilesTests`' own list, which covers the plain cases.
    static let tricks: [String] = [
        // Dot segments, plain and encoded in every case and width.
        "/public/css/../../secret.txt", "/public/./../secret.txt", "/public/.%2e/secret.txt",
        "/public/%2e./secret.txt", "/public/%2E./secret.txt", "/public/.%2E/secret.txt",
        "/public/%2e%2e%2fsecret.txt", "/public/%2e%2e%2Fsecret.txt", "/public/%2E%2E%2Fsecret.txt",
        "/public/..%2Fsecret.txt", "/public/css/%2e%2e/%2e%2e/secret.txt", "/public/%252e%252e/secret.txt",
        "/public/%252e%252e%252fsecret.txt", "/public/..%252fsecret.txt", "/public/%25252e%25252e/secret.txt",
        // Overlong and non-standard UTF-8 encodings of '.' and '/'.
        "/public/%c0%ae%c0%ae/secret.txt", "/public/%c0%ae%c0%ae%c0%afsecret.txt", "/public/..%c0%afsecret.txt",
        "/public/..%c1%9csecret.txt", "/public/%e0%80%ae%e0%80%ae/secret.txt", "/public/..%e0%80%afsecret.txt",
        "/public/%f0%80%80%ae%f0%80%80%ae/secret.txt", "/public/..%ef%bc%8fsecret.txt",
        "/public/%u002e%u002e/secret.txt", "/public/..%u2215secret.txt", "/public/..%u2216secret.txt",
        // Backslashes, plain and encoded.
        "/public/..\\secret.txt", "/public/..%5Csecret.txt", "/public/css%5c..%5c..%5csecret.txt",
        "/public/%5c..%5csecret.txt",
        // Absolute paths and repeated slashes.
        "/public/%2f%2fetc/passwd", "/public///etc/passwd", "/public/%2F..%2Fsecret.txt", "/public/file:///etc/passwd",
        "/public/%00/../secret.txt",
        // NUL, other control characters, invalid escapes.
        "/public/index.html%00", "/public/%00index.html", "/public/secret.txt%00.css", "/public/index.html%0a",
        "/public/index.html%0d%0a", "/public/%zz", "/public/%", "/public/%2", "/public/index.html%ff",
        "/public/%ff%fe/../secret.txt",
        // Dotfiles and names that only look like the real file.
        "/public/.env%00", "/public/%2eenv", "/public/.%65nv", "/public/css/.", "/public/css/..", "/public/.",
        "/public/..", "/public/...", "/public/..../secret.txt", "/public/index.html/", "/public/index.html/.",
        "/public/index.html/..", "/public/index.html::$DATA", "/public/INDEX.HTML~",
        // Links leading out, reached by their encoded names.
        "/public/le%61k.txt", "/public/%6cea%6b.txt", "/public/up/%73ecret.txt", "/public/up%2fsecret.txt",
        "/public/up/../up/secret.txt", "/public/styles/../../secret.txt",
        // Very long names and deep nesting.
        "/public/" + String(repeating: "a", count: 4096),
        "/public/" + String(repeating: "../", count: 200) + "secret.txt",
        "/public/" + String(repeating: "css/", count: 300) + "style.css",
    ]

    @Test func theTableHasAtLeastFiftyTricks() {
        #expect(Self.tricks.count >= 50)
        #expect(Set(Self.tricks).count == Self.tricks.count)
    }

    @Test(arguments: tricks)
    func everyTraversalOrEncodingTrickIs404(target: String) throws {
        try withAttackedPublicDirectory { server throws in
            let response = try TestConnection.request(port: server.port, target)
            #expect(response.status == 404, "\(target)")
            #expect(!response.text.contains("top secret"))
            #expect(!response.text.contains("hidden dotfile"))
            #expect(try TestConnection.request(port: server.port, "/public/index.html").status == 200)
        }
    }

    @Test func rawControlBytesInTheRequestLineNeverReachAFile() throws {
        try withAttackedPublicDirectory { server throws in
            for bytes: [UInt8] in [
                Array("GET /public/index.html".utf8) + [0] + Array(".css HTTP/1.1\r\nHost: x\r\n\r\n".utf8),
                Array("GET /public/".utf8) + [0xC0, 0xAE, 0xC0, 0xAE]
                    + Array("/secret.txt HTTP/1.1\r\nHost: x\r\n\r\n".utf8),
                Array("GET /public/..".utf8) + [0x7F] + Array("/secret.txt HTTP/1.1\r\nHost: x\r\n\r\n".utf8),
                Array("GET /public/\t../secret.txt HTTP/1.1\r\nHost: x\r\n\r\n".utf8),
            ] {
                let connection = try TestConnection(port: server.port)
                try connection.send(bytes)
                let response = try? connection.readResponse()
                if let response {
                    #expect(response.status == 400 || response.status == 404, "\(bytes): \(response.status)")
                    #expect(!response.text.contains("top secret"))
                }
            }
            #expect(try TestConnection.request(port: server.port, "/public/index.html").status == 200)
        }
    }

    /// A `Public` directory holding a page, a dotfile and two links leading out to a secret beside it.
    private func withAttackedPublicDirectory(_ body: (_ server: HTTPServer) throws -> Void) throws {
        try withTemporaryDirectory { root in
            let publicDirectory = root + "/Public"
            try FileManager.default.createDirectory(atPath: publicDirectory + "/css", withIntermediateDirectories: true)
            try "body {}".write(toFile: publicDirectory + "/css/style.css", atomically: true, encoding: .utf8)
            try "<h1>index</h1>".write(toFile: publicDirectory + "/index.html", atomically: true, encoding: .utf8)
            try "hidden dotfile".write(toFile: publicDirectory + "/.env", atomically: true, encoding: .utf8)
            try "top secret".write(toFile: root + "/secret.txt", atomically: true, encoding: .utf8)
            try FileManager.default.createSymbolicLink(
                atPath: publicDirectory + "/leak.txt", withDestinationPath: root + "/secret.txt")
            try FileManager.default.createSymbolicLink(atPath: publicDirectory + "/up", withDestinationPath: root)
            try FileManager.default.createSymbolicLink(atPath: publicDirectory + "/styles", withDestinationPath: "css")
            try withServer(routes: { $0.serveFiles(at: "/public", from: publicDirectory) }) { server throws in
                try body(server)
            }
        }
    }
}
