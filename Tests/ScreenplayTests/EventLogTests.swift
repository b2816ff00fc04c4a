import Testing

@testable import Screenplay

@Suite struct EventLogTests {
    /// The log keeps the newest `capacity` events, oldest first, from its first event on (made as an array of one)
    /// through the wrap, and answers a catch-up after an id it still covers.
    @Test(arguments: [1, 2, 3])
    func keepsTheNewestEventsOldestFirstFromTheFirstOn(capacity: Int) {
        var log = EventLog(capacity: capacity)
        #expect(log.kept.isEmpty)
        #expect(log.events(after: 0)?.isEmpty == true)
        for number in 1...5 {
            let entry = log.append(.title("t\(number)"))
            #expect(entry.id == number)
            let expected = (max(1, number - capacity + 1)...number).map { $0 }
            #expect(log.kept.map(\.id) == expected)
            #expect(log.lastID == number)
            #expect(log.events(after: number - 1)?.map(\.id) == [number])
            #expect(log.events(after: max(0, number - capacity))?.map(\.id) == expected)
            if number > capacity { #expect(log.events(after: number - capacity - 1) == nil) }
        }
        #expect(log.kept.map(\.name) == Array(repeating: "title", count: capacity))
    }

    /// An entry framed for the next id is not kept until it is recorded; recorded, it is kept as ``EventLog/append(_:)``
    /// keeps one, through the wrap.
    @Test func anEntryIsKeptOnceRecordedAsAnAppendedOne() {
        var (log, appended) = (EventLog(capacity: 2), EventLog(capacity: 2))
        for number in 1...4 {
            let entry = EventLog.entry(for: .title("t\(number)"), id: log.nextID)
            #expect(entry.id == number && log.lastID == number - 1 && log.nextID == number)
            #expect(log.kept.count == min(number - 1, 2))
            log.record(entry)
            #expect(appended.append(.title("t\(number)")).bytes == entry.bytes)
            #expect(log.lastID == number && log.kept.map(\.bytes) == appended.kept.map(\.bytes))
            #expect(log.events(after: number - 1)?.map(\.bytes) == [entry.bytes])
        }
    }
}
