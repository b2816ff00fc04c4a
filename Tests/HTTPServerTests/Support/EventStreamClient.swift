import Foundation

/// Reads a `text/event-stream` response off a ``TestConnection``, chunk by chunk.
final class EventStreamClient {
    let connection: TestConnection
    private(set) var text = ""
    private(set) var ended = false

    /// Connects, requests `target` and reads the response head.
    init(port: Int, target: String = "/events", headers: [String] = []) throws {
        connection = try TestConnection(port: port)
        var request = "GET \(target) HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n"
        for header in headers { request += header + "\r\n" }
        try connection.send(request + "\r\n")
        let head = try connection.readHead()
        guard head.status == 200, head[header: "Content-Type"] == "text/event-stream" else {
            throw TestClientError(description: "not an event stream: \(head.status)")
        }
    }

    /// Reads chunks until `count` events (blocks ending in a blank line, comments included) have
    /// arrived in total, and returns them all.
    @discardableResult
    func read(events count: Int) throws -> [String] {
        while blocks.count < count {
            guard let chunk = try connection.readChunk() else {
                ended = true
                throw TestClientError(description: "stream ended after \(blocks.count) events")
            }
            text += String(decoding: chunk, as: UTF8.self)
        }
        return blocks
    }

    /// Reads until the server ends the stream; returns whether it did within the timeout.
    func readUntilEnd() -> Bool {
        do {
            while let chunk = try connection.readChunk() { text += String(decoding: chunk, as: UTF8.self) }
            ended = true
            return true
        } catch {
            return false
        }
    }

    /// The complete blocks received so far, without their terminating blank line.
    var blocks: [String] {
        var parts = text.components(separatedBy: "\n\n")
        parts.removeLast()
        return parts
    }
}
