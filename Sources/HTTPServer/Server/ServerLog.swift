import Glibc

/// Writes the server's diagnostics and access log lines to standard error, one `write` per line
/// so lines from different threads never interleave.
package enum ServerLog {
    static func error(_ message: String) {
        write("screenplay-http: error: \(message)\n")
    }

    package static func write(_ line: String) {
        var line = line
        line.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(2, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }
}
