// Primitives: the bottom module of the framework, with what every other module shares and nothing of the framework
// itself. The locks (`Locked`, a box to share; `LockedValue`, `Mutex` stored in its owner; `InlineLock`, guarding its
// owner's own fields), `Transfer` for a hand-over to one other thread, and the C doors below Foundation
// (`CDoors.swift`). One flag, `-DSCREENPLAY_TSAN_LOCKS`, swaps every lock for `NSLock` in ThreadSanitizer runs.
//
// Its declarations are `public` so that other modules' inlinable code (a conflated feed, specialised in the app) can
// use them and the optimiser inlines them across modules; the module is no product of the package, so code outside
// the package does not see it.
