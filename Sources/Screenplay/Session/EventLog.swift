/// The last few events of a screen, encoded, so a reconnecting page can catch up (`Last-Event-ID`).
struct EventLog {
    private var events: [(id: Int, bytes: [UInt8])] = []
    private var start = 0
    let capacity: Int

    init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    /// The id of the newest event, or 0 before the first.
    private(set) var lastID = 0

    /// Records an event and returns its wire bytes.
    mutating func append(_ event: ScreenEvent) -> [UInt8] {
        lastID += 1
        let bytes = event.encoded(id: lastID)
        if events.count < capacity {
            events.append((lastID, bytes))
        } else {
            events[start] = (lastID, bytes)
            start = (start + 1) % capacity
        }
        return bytes
    }

    /// The events after `id`, oldest first, or nil when some of them are no longer kept (or `id` is unknown).
    func events(after id: Int) -> [[UInt8]]? {
        guard id <= lastID, id >= 0 else { return nil }
        let missed = lastID - id
        guard missed <= events.count else { return nil }
        var result: [[UInt8]] = []
        result.reserveCapacity(missed)
        for offset in (events.count - missed)..<events.count {
            result.append(events[(start + offset) % events.count].bytes)
        }
        return result
    }
}
