#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The current-thread trampoline (RxSwift's `CurrentThreadScheduler`): the outermost `subscribe`
/// on a thread opens it; a synchronous source subscribed inside defers its loop to it, so the loop
/// starts only after every operator in the chain holds its upstream subscription and can stop it
/// (`Observable.from(1...).take(3)` terminates).
enum Trampoline {
    private final class Queue {
        var actions: [() -> Void] = []
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed: \(status)")
        return key
    }()

    /// Runs `body`; if no trampoline is open on this thread, opens one around it and then runs
    /// what was deferred to it.
    static func run<Result>(_ body: () -> Result) -> Result {
        if pthread_getspecific(key) != nil { return body() }
        let queue = Queue()
        pthread_setspecific(key, Unmanaged.passUnretained(queue).toOpaque())
        defer { pthread_setspecific(key, nil) }
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
        if let pointer = pthread_getspecific(key) {
            Unmanaged<Queue>.fromOpaque(pointer).takeUnretainedValue().actions.append(action)
        } else {
            run(action)
        }
    }
}
