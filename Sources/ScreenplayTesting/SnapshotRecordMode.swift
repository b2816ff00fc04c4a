import Foundation

/// When `assertSnapshot` writes reference files.
///
/// Resolved per assertion: the `record:` argument, else the `SNAPSHOT_TESTING_RECORD` environment
/// variable (`all`, `missing` or `never`), else `.missing`. CI runs with `never`, so a reference
/// that was not committed fails there instead of being silently recorded.
public enum SnapshotRecordMode: String, Sendable, CaseIterable {
    /// Write every reference anew, and fail so the run is not mistaken for a passing one.
    case all
    /// Write references that do not exist yet (and fail once so they are reviewed); compare others.
    case missing
    /// Never write a reference; a missing one is a failure.
    case never

    /// The mode the environment asks for, or `.missing`.
    public static var current: SnapshotRecordMode {
        ProcessInfo.processInfo.environment["SNAPSHOT_TESTING_RECORD"].flatMap {
            SnapshotRecordMode(rawValue: $0.lowercased())
        } ?? .missing
    }
}
