import Primitives

/// The current-thread trampoline (RxSwift's `CurrentThreadScheduler`): the outermost `subscribe`
/// on a thread opens it; a synchronous source subscribed inside defers its loop to it, so the loop
/// starts only after every operator in the chain holds its upstream subscription and can stop it
/// (`Observable.from(1...).take(3)` terminates).
enum Trampoline {
    private final class Queue {
        var actions: [() -> Void] = []
    }

    /// The open trampoline's queue on this thread, unretained (`run` holds it), or nil.
    private static let slot = ThreadSlot("Trampoline")

    /// Runs `body`; if no trampoline is open on this thread, opens one around it and then runs
    /// what was deferred to it.
    static func run<Result>(_ body: () -> Result) -> Result {
        if slot.pointer != nil { return body() }
        let queue = Queue()
        slot.set(Unmanaged.passUnretained(queue).toOpaque())
        defer { slot.set(nil) }
        let result = body()
        var index = 0
        while index < queue.actions.count {
            let action = queue.actions[index]
            index += 1
            action()
        }
        withExtendedLifetime(queue) {}
        return result
    }

    /// Defers `action` to the open trampoline, or runs it now (opening one) if none is open.
    static func schedule(_ action: @escaping () -> Void) {
        if let pointer = slot.pointer {
            Unmanaged<Queue>.fromOpaque(pointer).takeUnretainedValue().actions.append(action)
        } else {
            run(action)
        }
    }
}
