import Primitives

/// A server-sent event as its parts: a name and an id framing one line of `data`, which many events may share.
///
/// Its bytes on the wire are `event: name\nid: id\ndata: data\n\n` — or, on a stream that carries the events of
/// several sources, each numbering its own, `id: namespace.id`, naming the source (``inNamespace(_:)``). An event
/// stream keeps it as it is until its connection takes it (``EventStream/send(event:id:data:)``), and a source may keep
/// it for replay: a fan-out of one payload to thousands of streams copies the payload into each socket, not into a
/// buffer of each stream.
package struct FramedEvent: Sendable {
    package let name: String
    package let id: Int
    package let data: [UInt8]
    /// The source whose numbering `id` belongs to, on a stream that carries several sources' events: written before
    /// the id, with a `.`. Nil when the stream has one numbering. Contract: holds no line break and no `.`.
    package private(set) var namespace: String?
    /// Its size on the wire: worked out when it is made (and named, ``inNamespace(_:)``), not at every use — a
    /// screen's event is measured for its metrics, its stream's bound and its read. Receipt: step 1 of
    /// Benchmarks/History/75-fan-out-screens-7.md.
    package private(set) var count: Int

    /// Nil when `name` is empty or holds a line break, or `data` holds one: the parts could not carry them as they
    /// are (``EventStream/encode(event:id:data:)`` splits such data into lines).
    package init?(name: String, id: Int, data: [UInt8]) {
        guard !name.isEmpty, !Self.hasLineBreak(name.utf8), !Self.hasLineBreak(data) else { return nil }
        self.name = name
        self.id = id
        self.data = data
        self.count = Self.framedCount(name: name, id: id, data: data)
    }

    /// For parts known to hold no line break (data that is JSON, or cleaned of line breaks), not looked through again
    /// for every stream of a fan-out.
    package init(name: String, id: Int, lineOfData data: [UInt8]) {
        assert(FramedEvent(name: name, id: id, data: data) != nil, "an event's name or data holds a line break")
        self.name = name
        self.id = id
        self.data = data
        self.count = Self.framedCount(name: name, id: id, data: data)
    }

    /// The same event with its id in `namespace` (`id: namespace.id`), for a stream that carries the events of
    /// several sources, each numbering its own. `namespace` holds no line break and no `.` (the caller's contract:
    /// the stream's reader splits the id at its last `.`).
    package func inNamespace(_ namespace: String) -> FramedEvent {
        inNamespace(namespace, count: count(inNamespace: namespace))
    }

    /// ``inNamespace(_:)`` for a caller that has worked out the named size already: `count` is
    /// ``count(inNamespace:)`` of `namespace`.
    func inNamespace(_ namespace: String, count: Int) -> FramedEvent {
        FramedEvent(name: name, id: id, data: data, namespace: namespace, count: count)
    }

    /// Its size on the wire in `namespace` (``inNamespace(_:)``'s `count`), without making the named event.
    package func count(inNamespace namespace: String) -> Int {
        count - (self.namespace.map { $0.utf8.count + 1 } ?? 0) + namespace.utf8.count + 1
    }

    /// An event from its parts, `count` its size on the wire with them: for ``inNamespace(_:)``, which builds the named
    /// event field by field rather than copying the whole event and assigning to it (receipt: step 2 of
    /// Benchmarks/History/75-fan-out-screens-7.md).
    private init(name: String, id: Int, data: [UInt8], namespace: String?, count: Int) {
        self.name = name
        self.id = id
        self.data = data
        self.namespace = namespace
        self.count = count
    }

    /// The size on the wire of an event without a namespace.
    private static func framedCount(name: String, id: Int, data: [UInt8]) -> Int {
        7 + name.utf8.count + 5 + decimalCount(id) + 7 + data.count + 2
    }

    /// Its bytes on the wire, in one buffer.
    package var bytes: [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = write(into: UnsafeMutableRawBufferPointer(buffer))
        }
    }

    /// Appends its bytes on the wire to `bytes`, `count` of them, with no array of their own: for a stream whose
    /// earlier events are still unsent (a stream shared by many screens, each writing to it in a fan-out), where
    /// framing the event into an array first made an array and freed it for every event. Framed in a temporary
    /// allocation (on the stack for an event of the usual size) and appended in one piece: the parts appended one by
    /// one cost more. Sound while `count` is this event's framed size, as for ``write(into:)``: the writing stays
    /// within the allocation, and its bytes are copied out before the allocation ends. Receipt: the stream's send,
    /// step 2 of Benchmarks/History/59-fan-out-screens-2.md.
    package func append(to bytes: inout [UInt8], count: Int) {
        append(to: &bytes, count: count, namespace: namespace)
    }

    /// Appends the bytes on the wire of this event in `namespace` (``inNamespace(_:)``), `count` of them
    /// (``count(inNamespace:)``), as ``append(to:count:)`` does, without making the named event: for a stream shared
    /// by many screens, each naming its events, where the named copy retained and released its parts for every
    /// screen of a fan-out. Sound as ``append(to:count:)`` is. Receipt: step 1 of
    /// Benchmarks/History/82-fan-out-screens-10.md.
    package func append(to bytes: inout [UInt8], count: Int, inNamespace namespace: String) {
        append(to: &bytes, count: count, namespace: namespace)
    }

    /// The body of both appends. Invariant: `count` is this event's framed size with its id in `namespace`
    /// (``count`` for its own namespace, ``count(inNamespace:)`` for another), so ``write(into:namespace:)`` stays
    /// within the temporary allocation, whose bytes are copied out before it ends. Receipts: step 2 of
    /// Benchmarks/History/59-fan-out-screens-2.md (the temporary allocation), step 1 of
    /// Benchmarks/History/82-fan-out-screens-10.md (the namespace passed in rather than a named copy).
    private func append(to bytes: inout [UInt8], count: Int, namespace: String?) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { scratch in
            let written = write(into: UnsafeMutableRawBufferPointer(scratch), namespace: namespace)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<written]))
        }
    }

    /// Writes the event at the start of `destination`, which has room for `count` bytes; returns `count`.
    package func write(into destination: UnsafeMutableRawBufferPointer) -> Int {
        write(into: destination, namespace: namespace)
    }

    /// Writes the event with its id in `namespace` (its own, or the one a send names it in) at the start of
    /// `destination`, which has room for its size in that namespace; returns that size. Invariant: every caller sized
    /// `destination` with that size (``count`` or ``count(inNamespace:)``, both computed from the same parts this
    /// writes, which a test compares byte for byte); the pointer writes below stay within it. Receipt: as for
    /// ``append(to:count:namespace:)``.
    private func write(into destination: UnsafeMutableRawBufferPointer, namespace: String?) -> Int {
        // Every stream of a fan-out frames its event here: plain copies through one pointer into memory the caller
        // sized with `count`. A C door rather than a trick: the memory is the transport's (the buffer
        // libmicrohttpd's content reader hands a stream, or an adopted stream's send buffer), or `bytes`' array.
        let start = destination.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var out = start
        Self.copy("event: ", to: &out)
        name.withUTF8Bytes { Self.copy($0, to: &out) }
        Self.copy("\nid: ", to: &out)
        if let namespace {
            namespace.withUTF8Bytes { Self.copy($0, to: &out) }
            out.pointee = UInt8(ascii: ".")
            out += 1
        }
        let digits = Self.decimalCount(id)
        var rest = id.magnitude
        var position = out + digits
        repeat {
            position -= 1
            position.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        } while rest > 0
        if id < 0 { out.pointee = UInt8(ascii: "-") }
        out += digits
        Self.copy("\ndata: ", to: &out)
        data.withUnsafeBufferPointer { Self.copy($0, to: &out) }
        Self.copy("\n\n", to: &out)
        return out - start
    }

    @inline(__always)
    private static func copy(_ text: StaticString, to out: inout UnsafeMutablePointer<UInt8>) {
        out.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
        out += text.utf8CodeUnitCount
    }

    @inline(__always)
    private static func copy(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout UnsafeMutablePointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        out.update(from: base, count: bytes.count)
        out += bytes.count
    }

    /// The characters of `value` in decimal, its sign included.
    private static func decimalCount(_ value: Int) -> Int {
        var count = value < 0 ? 2 : 1
        var rest = value.magnitude
        while rest >= 10 {
            rest /= 10
            count += 1
        }
        return count
    }

    private static func hasLineBreak(_ bytes: some Sequence<UInt8>) -> Bool {
        bytes.contains { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }
    }
}
