internal import Dispatch
internal import FoundationEssentials
import Primitives
internal import Reactive
internal import Synchronization

/// Polls the modification times and sizes of the files under some folders on one background timer and reports the
/// changed files once they have settled. Polling is portable and cheap for a project's few hundred files, and it
/// needs no timer per screen or per file.
///
/// A save is rarely one step: an editor or `write(atomically:)` creates a temporary file, fills it and renames it
/// over the old one, and a busy machine can be caught in between. So a change is reported only once no file under the
/// folders has changed (name, size or time) for the quiet period: one save, however many steps it takes, is one
/// report, and a file is never read while its size still moves. Saves within the quiet period of each other are
/// reported together.
final class FileWatcher: Sendable {
    private let directories: [String]
    private let quietPeriod: Duration
    private let queue = DispatchQueue(label: "screenplay.file-watcher", qos: .utility)
    private let isRunning = Atomic<Bool>(false)
    private let state: Locked<State>
    private let onChange: @Sendable ([String]) -> Void

    /// The files as last reported, and the latest scan with the time it was first seen as it is.
    private struct State {
        var reported: [String: Stamp]
        var latest: [String: Stamp]
        var unchangedSince: ContinuousClock.Instant
    }

    /// The quiet period a change waits for when none is given: longer than the steps of one save on a loaded
    /// machine, short enough not to be noticed after a save.
    static let defaultQuietPeriod: Duration = .milliseconds(150)

    /// Watches the files under `directories`; `onChange` gets the changed, added or removed paths on the watcher's
    /// queue, once nothing under the folders has changed for `quietPeriod`.
    init(
        directories: [String], quietPeriod: Duration = FileWatcher.defaultQuietPeriod,
        onChange: @escaping @Sendable ([String]) -> Void
    ) {
        self.directories = directories
        self.quietPeriod = quietPeriod
        self.onChange = onChange
        let initial = Self.scan(directories)
        state = Locked(State(reported: initial, latest: initial, unchangedSince: .now))
    }

    func start(interval: Duration) {
        let milliseconds = Int(
            interval.components.seconds * 1000 + interval.components.attoseconds / 1_000_000_000_000_000)
        isRunning.store(true, ordering: .relaxed)
        schedule(after: .milliseconds(max(10, milliseconds)))
    }

    /// One poll per interval, each scheduling the next on the watcher's queue: a single timer in flight.
    private func schedule(after interval: DispatchTimeInterval) {
        queue.asyncAfter(deadline: .now() + interval) { [weak self] in
            guard let self, self.isRunning.load(ordering: .relaxed) else { return }
            self.poll()
            self.schedule(after: interval)
        }
    }

    func stop() {
        isRunning.store(false, ordering: .relaxed)
        // Wait for a poll in progress, so nothing runs after stop returns.
        queue.sync {}
    }

    /// Scans the files at `now` and reports the differences from the last report, once the scan has not changed for
    /// the quiet period.
    func poll(at now: ContinuousClock.Instant = .now) {
        let current = Self.scan(directories)
        let changed = state.withLock { state -> [String] in
            guard current == state.latest else {
                state.latest = current
                state.unchangedSince = now
                return []
            }
            guard now - state.unchangedSince >= quietPeriod, current != state.reported else { return [] }
            let previous = state.reported
            state.reported = current
            var changed = current.compactMap { path, stamp in previous[path] == stamp ? nil : path }
            changed += previous.keys.filter { current[$0] == nil }
            return changed.sorted()
        }
        // Called with no lock held, so the handler may take its time without holding up a poll's bookkeeping.
        if !changed.isEmpty { onChange(changed) }
    }

    /// A file's modification time and size: two saves within the file system's time resolution still differ in size.
    private struct Stamp: Equatable {
        let date: Date
        let size: Int
    }

    private static func scan(_ directories: [String]) -> [String: Stamp] {
        var result: [String: Stamp] = [:]
        let manager = FileManager.default
        for directory in directories {
            guard let relatives = try? manager.subpathsOfDirectory(atPath: directory) else { continue }
            for relative in relatives {
                let path = directory + "/" + relative
                guard let attributes = try? manager.attributesOfItem(atPath: path),
                    attributes[.type] as? FileAttributeType == .typeRegular,
                    let date = attributes[.modificationDate] as? Date
                else { continue }
                result[path] = Stamp(date: date, size: (attributes[.size] as? Int) ?? 0)
            }
        }
        return result
    }
}
