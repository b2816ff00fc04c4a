import Testing
import ViewKit

@Suite struct UTF8WriterTests {
    private func written(room: Int, _ write: (inout UTF8Writer) -> Void) -> String {
        String(unsafeUninitializedCapacity: room) { storage in
            var writer = UTF8Writer(storage)
            write(&writer)
            return writer.count
        }
    }

    @Test func numbersOfEveryLengthAndSignTakeTheRoomCounted() {
        for number in [0, 7, -7, 10, -10, 99, 100, 1_000_000, Int.max, Int.min, Int.max - 1, Int.min + 1] {
            let room = UTF8Writer.decimalCount(number)
            #expect(room == String(number).utf8.count, "\(number)")
            #expect(written(room: room) { $0.append(number) } == String(number))
        }
    }

    @Test func piecesFollowEachOther() {
        let text = written(room: 64) { writer in
            writer.append("id: ")
            writer.append(42)
            writer.append(" · ")
            writer.append(utf8Of: "Café")
            writer.append(Array("\n\n".utf8))
        }
        #expect(text == "id: 42 · Café\n\n")
    }
}
