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
}
