import Foundation
import TestSupport

/// Makes a file truly unwritable: `chmod 444` for a user, `chattr +i` for root (whom permissions do
/// not bind), so a store meets a real read-only file rather than a flag.
enum ReadOnlyFile {
    private static var isRoot: Bool { geteuid() == 0 }

    /// Whether this machine can make a file read-only for this process.
    static let isSupported: Bool = {
        guard isRoot else { return true }
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("probe-\(UUID().uuidString)").path
        guard FileManager.default.createFile(atPath: probe, contents: Data()) else { return false }
        defer { try? FileManager.default.removeItem(atPath: probe) }
        guard (try? protect(probe)) != nil else { return false }
        release(probe)
        return true
    }()

    static func protect(_ path: String) throws {
        if isRoot {
            try run("chattr", "+i", path)
        } else {
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        }
    }

    static func release(_ path: String) {
        if isRoot {
            try? run("chattr", "-i", path)
        } else {
            try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        }
    }

    private static func run(_ arguments: String...) throws {
        let process = try ChildProcess("/usr/bin/env", arguments, standardError: .discard)
        guard process.wait() == .exited(0) else {
            throw CocoaError(.fileWriteNoPermission)
        }
    }
}
