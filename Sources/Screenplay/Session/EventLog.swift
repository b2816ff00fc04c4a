internal import HTTPServer

/// The last few events of a screen, so a reconnecting page can catch up (`Last-Event-ID`).
///
/// Each is kept as its parts (``FramedEvent``): its id, its name and its `data:` line, which screens sending the
/// same patch share (``PatchEncoding``). When a movie changes, its thousands of screens keep one payload between
/// them rather than a framed copy each, and their streams frame it as their sockets take it.
struct EventLog {
    private var entries: [FramedEvent] = []
    private var start = 0
    let capacity: Int

    init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    /// The id of the newest event, or 0 before the first.
    private(set) var lastID = 0

    /// Records an event under the next id and returns it.
    mutating func append(_ event: ScreenEvent) -> FramedEvent {
        let entry = Self.entry(for: event, id: nextID)
        record(copy entry)
        return entry
    }

    /// The id the next event is recorded under.
    var nextID: Int { lastID + 1 }

    /// `event` framed under `id`, the log's ``nextID``, not recorded yet: for a sender that gives it to its streams
    /// first and then hands that value to ``record(_:)``, where ``append(_:)``'s log kept a copy of it beside the one
    /// returned (a retain and a release of each of its parts, on every screen of a fan-out). Made apart from the log,
    /// which is not copied (its array retained) for the call. Receipt: step 1 of
    /// Benchmarks/History/87-fan-out-screens-12.md.
    static func entry(for event: ScreenEvent, id: Int) -> FramedEvent {
        FramedEvent(name: event.name, id: id, lineOfData: event.data)
    }

    /// Records `entry`, which ``entry(for:id:)`` made under ``nextID`` since the last record. Contract: nothing is
    /// recorded in between (the id is the next one), so the log keeps its events in order, one id after another, as
    /// a catch-up replays them.
    mutating func record(_ entry: consuming FramedEvent) {
        assert(entry.id == nextID, "an event log's entry recorded out of turn")
        lastID += 1
        if entries.isEmpty {
            // A screen's first event (every screen of a fan-out that had none yet): the array made with it, of its
            // size, rather than grown from empty for one element.
            entries = [entry]
        } else if entries.count < capacity {
            entries.append(entry)
        } else {
            entries[start] = entry
            start = (start + 1) % capacity
        }
    }

    /// The events after `id`, oldest first, or nil when some of them are no longer kept (or `id` is unknown).
    func events(after id: Int) -> [FramedEvent]? {
        guard id <= lastID, id >= 0, lastID - id <= entries.count else { return nil }
        return Array(kept.suffix(lastID - id))
    }

    /// The events kept, oldest first.
    var kept: [FramedEvent] {
        (0..<entries.count).map { entries[(start + $0) % entries.count] }
    }
}
