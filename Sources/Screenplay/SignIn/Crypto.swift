internal import CCrypto
internal import Foundation
import Primitives

/// The sign-in's cryptography, from OpenSSL's libcrypto: PBKDF2, HMAC-SHA-256, random bytes, and comparison in
/// constant time.
enum Crypto {
    /// PBKDF2-HMAC-SHA-256 of `password` with `salt`, `iterations` rounds, 32 bytes.
    static func pbkdf2(password: String, salt: [UInt8], iterations: Int) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 32)
        // The string is passed as its UTF-8 bytes (Swift's C-string argument), its length counted in bytes.
        let done = PKCS5_PBKDF2_HMAC(
            password, Int32(password.utf8.count), salt, Int32(salt.count), Int32(clamping: iterations), EVP_sha256(),
            Int32(output.count), &output)
        // libcrypto fails only when it cannot allocate; an all-zero key then matches no stored hash.
        return done == 1 ? output : [UInt8](repeating: 0, count: 32)
    }

    /// HMAC-SHA-256 of `message` under `key`.
    static func hmac(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard HMAC(EVP_sha256(), key, Int32(key.count), message, message.count, &output, &length) != nil else {
            return []
        }
        return Array(output.prefix(Int(length)))
    }

    /// `count` bytes from the system's secure generator.
    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// Whether `lhs` and `rhs` are equal, in a time that depends on their length only.
    static func equal(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count, !lhs.isEmpty else { return lhs.isEmpty && rhs.isEmpty }
        return CRYPTO_memcmp(lhs, rhs, lhs.count) == 0
    }

    /// `bytes` in URL-safe base64 without padding, for cookie values.
    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of URL-safe base64 `text`, or nil when it is not that.
    static func bytes(base64URL text: Substring) -> [UInt8]? {
        guard text.utf8.allSatisfy({ SessionToken.isTokenByte($0) }) else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.utf8.count % 4 != 0 { standard += "=" }
        return Data(base64Encoded: standard).map(Array.init)
    }
}

/// An HMAC-SHA-256 key made ready once: OpenSSL's MAC context keyed with it, duplicated for each message, so that a
/// signature neither fetches the digest nor keys the MAC again, as the one-shot `Crypto.hmac` does on every call
/// (receipt: `PreparedHMAC` in Benchmarks/History/30-pages-are-renders.md).
///
/// Contract: ``mac(_:)`` is thread-safe; the keyed context is only read, duplicated under a lock (OpenSSL does not
/// promise concurrent duplicates of one context are safe), and each message is signed on its own copy.
final class PreparedHMAC: @unchecked Sendable {
    // @unchecked: `keyed` is written once, in `init`, and afterwards only duplicated under `lock`.
    private let keyed: OpaquePointer
    private let lock = Locked(())

    /// The key made ready; nil when libcrypto cannot make a MAC context (it cannot allocate).
    init?(key: [UInt8]) {
        guard let mac = EVP_MAC_fetch(nil, "HMAC", nil) else { return nil }
        defer { EVP_MAC_free(mac) }
        guard let context = EVP_MAC_CTX_new(mac) else { return nil }
        let keyed = "digest".withCString { name in
            "SHA256".withCString { digest in
                var parameters = [
                    OSSL_PARAM_construct_utf8_string(name, UnsafeMutablePointer(mutating: digest), 0),
                    OSSL_PARAM_construct_end(),
                ]
                return EVP_MAC_init(context, key, key.count, &parameters) == 1
            }
        }
        guard keyed else {
            EVP_MAC_CTX_free(context)
            return nil
        }
        self.keyed = context
    }

    deinit { EVP_MAC_CTX_free(keyed) }

    /// HMAC-SHA-256 of `message` under the key: 32 bytes; empty when libcrypto cannot allocate.
    func mac(_ message: [UInt8]) -> [UInt8] {
        guard let context = lock.withLock({ _ in EVP_MAC_CTX_dup(keyed) }) else { return [] }
        defer { EVP_MAC_CTX_free(context) }
        var output = [UInt8](repeating: 0, count: 32)
        var length = 0
        guard EVP_MAC_update(context, message, message.count) == 1,
            EVP_MAC_final(context, &output, &length, output.count) == 1
        else { return [] }
        return Array(output.prefix(length))
    }
}
