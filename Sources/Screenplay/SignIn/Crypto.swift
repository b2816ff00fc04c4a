internal import CCrypto
internal import FoundationEssentials
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
        Data(bytes).base64EncodedString().replacing("+", with: "-").replacing("/", with: "_").replacing("=", with: "")
    }

    /// The bytes of URL-safe base64 `text`, or nil when it is not that.
    static func bytes(base64URL text: Substring) -> [UInt8]? {
        guard text.utf8.allSatisfy({ SessionToken.isTokenByte($0) }) else { return nil }
        var standard = String(text).replacing("-", with: "+").replacing("_", with: "/")
        while standard.utf8.count % 4 != 0 { standard += "=" }
        return Data(base64Encoded: standard).map(Array.init)
    }
}

/// An HMAC-SHA-256 key made ready once: SHA-256's states after the key's inner and outer pads, copied for each
/// message (`screenplay_hmac_sha256` in the CCrypto shim), so that a signature neither allocates, nor fetches the
/// digest, nor keys the MAC again, as the one-shot `Crypto.hmac` and OpenSSL 3's `EVP_MAC_CTX_dup` do (receipt:
/// `PreparedHMAC` in Benchmarks/History/35-page-instructions.md).
///
/// Contract: ``mac(_:)`` is thread-safe; the prepared states are written once, in `init`, and only read (copied)
/// afterwards.
struct PreparedHMAC: Sendable {
    private let prepared: screenplay_hmac_sha256_key

    /// The key made ready.
    init(key: [UInt8]) {
        var prepared = screenplay_hmac_sha256_key()
        screenplay_hmac_sha256_prepare(&prepared, key, key.count)
        self.prepared = prepared
    }

    /// HMAC-SHA-256 of `message` under the key: 32 bytes.
    func mac(_ message: [UInt8]) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: 32) { output, count in
            withUnsafePointer(to: prepared) { screenplay_hmac_sha256($0, message, message.count, output.baseAddress) }
            count = 32
        }
    }
}
