internal import FoundationEssentials
internal import Primitives

/// A password as it is stored: PBKDF2-HMAC-SHA-256 with a random salt, written
/// `pbkdf2-sha256$<iterations>$<salt base64>$<hash base64>` (the format of Django's and Passlib's hashes).
///
/// ```swift
/// let line = "alice " + PasswordHash.make(password: "correct horse").description   // a line of accounts.txt
/// try PasswordHash(stored).verifies(typed)
/// ```
public struct PasswordHash: Sendable, Equatable, CustomStringConvertible {
    /// The rounds of PBKDF2, the salt and the derived key.
    public let iterations: Int
    public let salt: [UInt8]
    public let key: [UInt8]

    /// The rounds ``make(password:iterations:)`` uses unless told: OWASP's figure for PBKDF2-HMAC-SHA-256.
    public static let defaultIterations = 600_000

    /// A stored hash that cannot be read.
    public struct FormatError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Reads a stored hash; throws ``FormatError`` saying what is wrong with it.
    public init(_ encoded: String) throws {
        let parts = encoded.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "pbkdf2-sha256" else {
            throw FormatError(description: "a password hash is pbkdf2-sha256$<iterations>$<salt>$<hash>")
        }
        guard let iterations = Int(parts[1]), (1_000...10_000_000).contains(iterations) else {
            throw FormatError(description: "a password hash's iterations are a number from 1000 to 10000000")
        }
        guard let salt = Data(base64Encoded: String(parts[2])), salt.count >= 8,
            let key = Data(base64Encoded: String(parts[3])), key.count == 32
        else {
            throw FormatError(description: "a password hash's salt (8 bytes or more) and hash (32 bytes) are base64")
        }
        self.iterations = iterations
        self.salt = Array(salt)
        self.key = Array(key)
    }

    private init(iterations: Int, salt: [UInt8], key: [UInt8]) {
        self.iterations = iterations
        self.salt = salt
        self.key = key
    }

    /// A hash that no password verifies (its key is random bytes, not derived from anything) and that costs as much
    /// to check as a real one of `iterations` rounds. Made without running PBKDF2: a server reading its accounts
    /// does not spend a whole derivation at start-up on it.
    static func decoy(iterations: Int) -> PasswordHash {
        PasswordHash(iterations: iterations, salt: Crypto.randomBytes(16), key: Crypto.randomBytes(32))
    }

    /// Hashes `password` with a new random salt of 16 bytes.
    public static func make(password: String, iterations: Int = defaultIterations) -> PasswordHash {
        let salt = Crypto.randomBytes(16)
        return PasswordHash(
            iterations: iterations, salt: salt,
            key: Crypto.pbkdf2(password: password, salt: salt, iterations: iterations))
    }

    /// Whether `password` is the one hashed, compared in constant time.
    public func verifies(_ password: String) -> Bool {
        Crypto.equal(Crypto.pbkdf2(password: password, salt: salt, iterations: iterations), key)
    }

    /// The stored form.
    public var description: String {
        "pbkdf2-sha256$\(iterations)$\(Data(salt).base64EncodedString())$\(Data(key).base64EncodedString())"
    }
}

/// The accounts a ``SignIn`` checks names and passwords against: names and their ``PasswordHash``es.
///
/// A file of accounts has one per line, `name <hash>`; blank lines and lines starting with `#` are skipped:
///
/// ```text
/// # name  hash
/// alice   pbkdf2-sha256$600000$…$…
/// ```
public struct Accounts: Sendable {
    private let hashes: [String: PasswordHash]
    /// Verified when a name is unknown, so that a wrong name takes as long as a wrong password.
    private let decoy: PasswordHash

    /// The accounts `hashes` names.
    public init(_ hashes: [String: PasswordHash]) {
        self.hashes = hashes
        let iterations = hashes.values.map(\.iterations).max() ?? PasswordHash.defaultIterations
        decoy = PasswordHash.decoy(iterations: iterations)
    }

    /// Reads the accounts file at `path`; throws an error naming the file and the line that cannot be read.
    public init(contentsOf path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError("accounts file \(path) not found or not readable")
        }
        var hashes: [String: PasswordHash] = [:]
        for (index, line) in String(decoding: data, as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false
        ).enumerated() {
            let text = line.trimmingWhitespace()
            guard !text.isEmpty, !text.hasPrefix("#") else { continue }
            let fields = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count == 2 else {
                throw ConfigurationError("\(path):\(index + 1): an account line is “name hash”")
            }
            do {
                hashes[String(fields[0])] = try PasswordHash(String(fields[1]))
            } catch {
                throw ConfigurationError("\(path):\(index + 1): \(error)")
            }
        }
        self.init(hashes)
    }

    /// The names of the accounts.
    public var names: [String] { hashes.keys.sorted() }

    /// Whether `password` is `name`'s. An unknown name costs one hash too: the time says nothing of which was wrong.
    public func verify(name: String, password: String) -> Bool {
        guard let hash = hashes[name] else {
            _ = decoy.verifies(password)
            return false
        }
        return hash.verifies(password)
    }
}
