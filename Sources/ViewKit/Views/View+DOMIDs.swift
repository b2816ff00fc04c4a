import Primitives
import Synchronization

// MARK: - DOM ids

extension View {
    var ownAllocator: DOMIDAllocator? {
        get { rare?.ownAllocator }
        set {
            if let newValue {
                rareState.ownAllocator = newValue
            } else if let rare, rare.ownAllocator != nil {
                // A subtree joining a tree gives up its allocator; its rare state often held nothing else.
                rare.ownAllocator = nil
                if rare.isEmpty { self.rare = nil }
            }
        }
    }

    var treeAllocator: DOMIDAllocator {
        let root = unretainedRoot
        if let allocator = root.ownAllocator { return allocator }
        let allocator = DOMIDAllocator()
        root.ownAllocator = allocator
        return allocator
    }

    /// The next generated id of this view's tree, from the allocator the render walk carries in `html` when `html`
    /// names this view (see ``renderSubviews(into:context:)``), or found from the view (``allocateTreeID()``).
    final func allocateTreeID(in html: borrowing HTMLBuffer) -> UInt32 {
        if html.idScopeView == ObjectIdentifier(self), let id = html.idAllocator?.allocate() { return id }
        return allocateTreeID()
    }

    /// The next generated id of this view's tree: its root's allocator, made on first use. The root, its rare
    /// state and the allocator are read in place through one chain, not each taken (retained) and let go: sound as
    /// `unretainedRoot` is (a parent outlives its link), and nothing in the chain lets the root's state go (receipt:
    /// `View.allocateTreeID` in Benchmarks/History/42-page-instructions-4.md).
    final func allocateTreeID() -> UInt32 {
        var node = Unmanaged.passUnretained(self)
        while let next = node._withUnsafeGuaranteedRef({ $0.parentLink }) { node = next }
        if let id = node._withUnsafeGuaranteedRef({ $0.rare?.ownAllocator?.allocate() }) { return id }
        return treeAllocator.allocate()
    }

    /// The element's `id`: generated (`v1`, `v2`, … in the order views are first rendered or asked),
    /// or the `id` attribute a template gave it. Stable for as long as the view stays in its tree.
    public var domID: String {
        if let explicitID { return explicitID }
        if storedID == 0 { storedID = allocateTreeID() }
        return Self.generatedID(storedID)
    }

    /// Whether `id` is this view's ``domID``, compared without making the id's string (a screen checks each patch's
    /// ids against its page's on every flush). A view that has no id yet, never rendered nor asked, has none.
    public func hasDOMID(_ id: String) -> Bool {
        if let explicitID { return explicitID.hasSameUTF8(as: id) }
        guard storedID != 0 else { return false }
        // `v` and the number's decimal digits (no leading zero), compared from the last digit in the string's own
        // bytes: a screen asks twice a flush, on every screen of a fan-out.
        var number = storedID
        var digits = 1
        while number >= 10 {
            number /= 10
            digits += 1
        }
        let utf8 = id.utf8
        guard utf8.count == digits + 1 else { return false }
        number = storedID
        var index = utf8.endIndex
        repeat {
            utf8.formIndex(before: &index)
            guard utf8[index] == UInt8(ascii: "0") + UInt8(truncatingIfNeeded: number % 10) else { return false }
            number /= 10
        } while number > 0
        return utf8[utf8.startIndex] == UInt8(ascii: "v")
    }

    /// Whether one of `changes` replaces this view: a `replace` of its DOM id (``hasDOMID(_:)``). What a screen asks
    /// of its page and its title on every flush: asked here, where the comparison is in view, rather than across the
    /// module, where each change's id was copied and the view retained around the call (receipt: step 1 of
    /// Benchmarks/History/85-fan-out-screens-11.md).
    package final func isReplaced(by changes: [ViewChange]) -> Bool {
        changes.contains { change in
            guard case .replace(let id, _) = change else { return false }
            return hasDOMID(id)
        }
    }

    /// Writes ` id="…"` as `appendAttribute("id", domID)` would, without making the id's string:
    /// a generated id's digits go straight into the buffer.
    final func writeIDAttribute(into html: inout HTMLBuffer) {
        // Rendered with its id from now on, so a patch can name it.
        if let explicitID {
            if isStaticMarkupOnPage { isStaticMarkupOnPage = false }
            html.appendAttribute(static: "id", explicitID)
            return
        }
        html.appendGeneratedIDAttribute(renderedGeneratedID(in: html))
    }

    /// The generated id a render writes for a view without an explicit one, given on first use; the view is
    /// rendered with its id from now on, so a patch can name it. Given from the render walk's allocator when `html`
    /// names this view (``allocateTreeID(in:)``).
    final func renderedGeneratedID(in html: borrowing HTMLBuffer) -> UInt32 {
        if isStaticMarkupOnPage { isStaticMarkupOnPage = false }
        if storedID == 0 { storedID = allocateTreeID(in: html) }
        return storedID
    }

    /// `v` and the number in decimal, built in place: at most 11 bytes, so a small string that
    /// needs no allocation.
    static func generatedID(_ number: UInt32) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 11) { buffer in
            var end = buffer.count
            var rest = number
            repeat {
                end -= 1
                buffer[end] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            end -= 1
            buffer[end] = UInt8(ascii: "v")
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[end...]), as: UTF8.self)
        }
    }
}

/// Hands out DOM ids for one tree; shared by a subtree that leaves so its ids stay unique.
///
/// `Sendable` so that a render's ``HTMLBuffer`` (a `Sendable` value) can carry its tree's allocator down the render
/// walk; its tree is confined, and the counter an atomic so that the conformance needs no unchecked promise.
final class DOMIDAllocator: Sendable {
    private let next = Atomic<UInt32>(0)

    /// The next id's number, from 1.
    func allocate() -> UInt32 {
        next.wrappingAdd(1, ordering: .relaxed).newValue
    }
}
