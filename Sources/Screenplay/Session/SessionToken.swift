import Glibc
import Primitives
import Reactive

/// Unguessable tokens for session ids and CSRF tokens.
enum SessionToken {
    /// 128 random bits from the system's secure generator, as 22 URL-safe base64 characters.
    static func make() -> String {
        var bits = pool.withLock { $0.take() }
        // The alphabet read once, not once a character: each read of the global passes its lazy initializer's check.
        let alphabet = Self.alphabet
        // Written straight into the string's storage: two tokens per page, no array in between.
        return String(unsafeUninitializedCapacity: 22) { buffer in
            for index in 0..<22 {
                let value: UInt64
                if index < 11 {
                    value = bits.0 & 0x3F
                    bits.0 >>= 6
                } else {
                    value = bits.1 & 0x3F
                    bits.1 >>= 6
                }
                buffer[index] = alphabet[Int(value)]
            }
            return 22
        }
    }

    /// Whether `byte` is one of a token's characters.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }

    /// The 64 characters of a token, URL-safe base64's (a page token's too, ``PageTokens``).
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Where tokens' bits come from. `SystemRandomNumberGenerator` makes a `getrandom` system call for every eight
    /// bytes; the pool asks the kernel for 256 bytes at a time. Receipt for a pool shared by every session:
    /// `RandomPool` in Benchmarks/History/26-receipts.md.
    private static let pool = Locked(RandomPool())

    static func equal(_ lhs: String, _ rhs: String) -> Bool {
        let left = Array(lhs.utf8), right = Array(rhs.utf8)
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in left.indices { difference |= left[index] ^ right[index] }
        return difference == 0
    }
}

/// Random words from the kernel's generator (`getrandom`, the source `SystemRandomNumberGenerator` uses), read
/// 256 bytes at a time. A word handed out is wiped from the pool, which so never holds a token already issued.
struct RandomPool {
    private static let wordCount = 32
    private var words = [UInt64](repeating: 0, count: RandomPool.wordCount)
    /// The next word to hand out; `wordCount` when the pool needs a refill.
    private var next = RandomPool.wordCount

    /// 128 random bits.
    mutating func take() -> (UInt64, UInt64) {
        if next + 2 > Self.wordCount { refill() }
        defer {
            words[next] = 0
            words[next + 1] = 0
            next += 2
        }
        return (words[next], words[next + 1])
    }

    private mutating func refill() {
        // glibc's `arc4random_buf` reads `getrandom` until the buffer is full (and aborts when the kernel has no
        // secure source: tokens must not be guessable, so there is nothing safe to fall back to).
        words.withUnsafeMutableBytes { arc4random_buf($0.baseAddress!, $0.count) }
        next = 0
    }
}
