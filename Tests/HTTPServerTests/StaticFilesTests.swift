import Foundation
import HTTPServer
import Testing

@Suite struct StaticFilesTests {
    /// A `Public` directory with a few files, a secret file beside it and a symbolic link leading out.
    private func withPublicDirectory(_ body: (_ server: HTTPServer) throws -> Void) throws {
        try withTemporaryDirectory { root in
            let publicDirectory = root + "/Public"
            try FileManager.default.createDirectory(atPath: publicDirectory + "/css", withIntermediateDirectories: true)
            try "body { color: red }".write(
                toFile: publicDirectory + "/css/style.css", atomically: true, encoding: .utf8)
            try "<h1>index</h1>".write(toFile: publicDirectory + "/index.html", atomically: true, encoding: .utf8)
            try "console.log(1)".write(toFile: publicDirectory + "/app.js", atomically: true, encoding: .utf8)
            try "hidden".write(toFile: publicDirectory + "/.env", atomically: true, encoding: .utf8)
            try "top secret".write(toFile: root + "/secret.txt", atomically: true, encoding: .utf8)
            try FileManager.default.createSymbolicLink(
                atPath: publicDirectory + "/leak.txt", withDestinationPath: root + "/secret.txt")
            try FileManager.default.createSymbolicLink(atPath: publicDirectory + "/up", withDestinationPath: root)
            try FileManager.default.createSymbolicLink(
                atPath: publicDirectory + "/home.html", withDestinationPath: publicDirectory + "/index.html")
            try FileManager.default.createSymbolicLink(atPath: publicDirectory + "/styles", withDestinationPath: "css")
            try withServer(routes: { $0.serveFiles(at: "/public", from: publicDirectory) }) { server throws in
                try body(server)
            }
        }
    }

    @Test func servesFilesWithContentTypeAndCachingHeaders() throws {
        try withPublicDirectory { server throws in
            let css = try TestConnection.request(port: server.port, "/public/css/style.css")
            #expect(css.status == 200)
            #expect(css.text == "body { color: red }")
            #expect(css[header: "Content-Type"] == "text/css; charset=utf-8")
            #expect(css[header: "ETag"]?.hasPrefix("\"") == true)
            #expect(css[header: "Last-Modified"]?.hasSuffix(" GMT") == true)
            #expect(css[header: "Cache-Control"] != nil)
            let html = try TestConnection.request(port: server.port, "/public/index.html")
            #expect(html[header: "Content-Type"] == "text/html; charset=utf-8")
            let js = try TestConnection.request(port: server.port, "/public/app.js")
            #expect(js[header: "Content-Type"] == "text/javascript; charset=utf-8")
        }
    }

    @Test func symbolicLinksStayingInsideAreServed() throws {
        try withPublicDirectory { server throws in
            #expect(try TestConnection.request(port: server.port, "/public/home.html").text == "<h1>index</h1>")
            #expect(
                try TestConnection.request(port: server.port, "/public/styles/style.css").text == "body { color: red }")
        }
    }

    @Test func matchingETagGives304WithoutBody() throws {
        try withPublicDirectory { server throws in
            let first = try TestConnection.request(port: server.port, "/public/index.html")
            let tag = try #require(first[header: "ETag"])
            let second = try TestConnection.request(
                port: server.port, "/public/index.html", headers: ["If-None-Match: \"other\", \(tag)"])
            #expect(second.status == 304)
            #expect(second.body.isEmpty)
            #expect(second[header: "ETag"] == tag)
            let stale = try TestConnection.request(
                port: server.port, "/public/index.html", headers: ["If-None-Match: \"stale\""])
            #expect(stale.status == 200)
        }
    }

    @Test func headGivesHeadersOfTheFile() throws {
        try withPublicDirectory { server throws in
            let connection = try TestConnection(port: server.port)
            try connection.send(
                "HEAD /public/index.html HTTP/1.1\r\nHost: x\r\n\r\nGET /public/app.js HTTP/1.1\r\nHost: x\r\n\r\n")
            let head = try connection.readResponse(hasBody: false)
            #expect(head.status == 200)
            #expect(head[header: "Content-Length"] == "14")
            #expect(try connection.readResponse().text == "console.log(1)")
        }
    }

    @Test(arguments: [
        "/public/../secret.txt", "/public/%2e%2e/secret.txt", "/public/%2E%2E/secret.txt",
        "/public/css/..%2f..%2fsecret.txt",
        "/public/css%2f..%2f..%2fsecret.txt", "/public/..%5csecret.txt", "/public/css\\..\\..\\secret.txt",
        "/public//etc/passwd", "/public/%2fetc%2fpasswd", "/public/index.html%00.css", "/public/leak.txt",
        "/public/up/secret.txt", "/public/.env", "/public/./index.html", "/public/", "/public/css",
        "/public/missing.txt",
    ])
    func nothingOutsideThePublicDirectoryIsServed(target: String) throws {
        try withPublicDirectory { server throws in
            let response = try TestConnection.request(port: server.port, target)
            #expect(response.status == 404, "\(target)")
            #expect(!response.text.contains("top secret"))
        }
    }
}
