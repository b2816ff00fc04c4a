import Primitives
internal import Reactive
package import ViewKit

/// The `data:` of the last patch encoded, so that screens sending the same patch share its JSON.
///
/// When a movie changes, every open screen of it works out its own changes and renders its own changed elements,
/// and for screens built from the same template and showing the same data these are the same bytes: the same DOM
/// ids, the same markup. The changes are compared in full (ids and markup, byte for byte) with the last patch
/// encoded, and when they are the same its bytes are reused; otherwise they are encoded and kept in its place, so a
/// screen never sends bytes other than its own changes' encoding. One entry: the screens of a fan-out run one after
/// another, and a patch that differs costs a failed comparison, which stops at the first differing length or byte.
/// Receipt for a cache shared by every screen: `PatchEncoding` in Benchmarks/History/26-receipts.md.
package final class PatchEncoding: Sendable {
    // Reactive's `Locked` (not `Mutex` itself): in ThreadSanitizer runs it takes an `NSLock`, whose locking TSan sees;
    // `Mutex`'s futex it does not, and it reported the memo's reads and writes as races.
    private let last = Locked<(changes: [ViewChange], data: [UInt8])?>(nil)

    package init() {}

    /// The process's memo, used by ``ScreenEvent/data`` and ``ScreenEvent/encoded(id:)``.
    package static let shared = PatchEncoding()

    /// The `data:` of a patch of `changes`: the last patch's bytes when its changes are the same, else `encode`'s.
    package func data(for changes: [ViewChange], encode: ([ViewChange]) -> [UInt8]) -> [UInt8] {
        // Compared under the lock, where the memo is: only its bytes come out (one reference), not the entry (two).
        let kept = last.withLock { entry -> [UInt8]? in
            // Read through the optional in place (`entry!`): binding it (`guard let`) copied both lists out.
            guard entry != nil, Self.same(entry!.changes, changes) else { return nil }
            return entry!.data
        }
        if let kept { return kept }
        let data = encode(changes)
        last.withLock { $0 = (changes, data) }
        return data
    }

    /// Whether two lists of changes are the same bytes on the wire.
    static func same(_ a: [ViewChange], _ b: [ViewChange]) -> Bool {
        guard a.count == b.count else { return false }
        // One enum switched at a time: a switch over the pair makes a tuple of two changes, which the compiled code
        // destroys through the run-time's generic tuple witness.
        for index in a.indices {
            let other = b[index]
            switch a[index] {
            case .replace(let id, let html):
                guard case .replace(let otherID, let otherHTML) = other, id.hasSameUTF8(as: otherID),
                    html.hasSameBytes(as: otherHTML)
                else { return false }
            case .insert(let parent, let before, let html):
                guard case .insert(let otherParent, let otherBefore, let otherHTML) = other,
                    parent.hasSameUTF8(as: otherParent), before.hasSameUTF8(as: otherBefore),
                    html.hasSameBytes(as: otherHTML)
                else { return false }
            case .remove(let id):
                guard case .remove(let otherID) = other, id.hasSameUTF8(as: otherID) else { return false }
            case .move(let id, let parent, let before):
                guard case .move(let otherID, let otherParent, let otherBefore) = other, id.hasSameUTF8(as: otherID),
                    parent.hasSameUTF8(as: otherParent), before.hasSameUTF8(as: otherBefore)
                else { return false }
            }
        }
        return true
    }
}
