internal import Foundation
import Primitives
internal import Reactive
internal import Synchronization

/// Polls the modification times of the files under some folders on one background timer and reports the changed
/// files. Polling (every ~300 ms) is portable and cheap for a project's few hundred files, and it needs no timer
/// per screen or per file.
final class FileWatcher: Sendable {
    private let directories: [String]
    private let queue = DispatchQueue(label: "screenplay.file-watcher", qos: .utility)
    private let isRunning = Atomic<Bool>(false)
    private let snapshot = Locked<[String: Stamp]>([:])
    private let onChange: @Sendable ([String]) -> Void

    /// Watches the files under `directories`; `onChange` gets the changed, added or removed paths on the watcher's
    /// queue.
    init(directories: [String], onChange: @escaping @Sendable ([String]) -> Void) {
        self.directories = directories
        self.onChange = onChange
        let initial = Self.scan(directories)
        snapshot.withLock { $0 = initial }
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

    /// Compares the files now with the last scan and reports the differences.
    func poll() {
        let current = Self.scan(directories)
        let changed = snapshot.withLock { previous -> [String] in
            defer { previous = current }
            var changed = current.compactMap { path, stamp in previous[path] == stamp ? nil : path }
            changed += previous.keys.filter { current[$0] == nil }
            return changed.sorted()
        }
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
            guard let enumerator = manager.enumerator(atPath: directory) else { continue }
            while let relative = enumerator.nextObject() as? String {
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
