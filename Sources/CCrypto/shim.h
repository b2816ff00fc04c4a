#ifndef SCREENPLAY_CCRYPTO_SHIM_H
#define SCREENPLAY_CCRYPTO_SHIM_H
// OpenSSL's libcrypto, for the sign-in and pages' tokens: PBKDF2 password hashes, HMAC-signed cookies and tokens
// (SHA-256's inner and outer states keyed once, below), constant-time comparison and random salts.
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <string.h>

// HMAC-SHA-256 (RFC 2104) from SHA-256's states after the key's inner and outer pad, made once: a message's MAC is
// two plain struct copies and two short hashes, no allocation, no provider look-up. OpenSSL 3 marks the SHA256_*
// functions deprecated in favour of EVP, whose context copies (`EVP_MAC_CTX_dup`) cost many times what these do
// (receipt: `PreparedHMAC` in Benchmarks/History/35-page-instructions.md); the warning is
// silenced for these two functions only, and `PageTokensSigningTests` checks them against the one-shot `HMAC()`.
typedef struct {
    SHA256_CTX inner;
    SHA256_CTX outer;
} screenplay_hmac_sha256_key;

#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
/// Keys `prepared` with the `length` bytes at `key` (hashed first when longer than SHA-256's 64-byte block).
static inline void screenplay_hmac_sha256_prepare(
    screenplay_hmac_sha256_key *prepared, const unsigned char *key, size_t length) {
    unsigned char block[64];
    memset(block, 0, sizeof block);
    if (length > sizeof block) {
        SHA256_CTX context;
        SHA256_Init(&context);
        SHA256_Update(&context, key, length);
        SHA256_Final(block, &context);
    } else if (length > 0) {
        memcpy(block, key, length);
    }
    unsigned char pad[64];
    for (size_t index = 0; index < sizeof pad; index++) pad[index] = block[index] ^ 0x36;
    SHA256_Init(&prepared->inner);
    SHA256_Update(&prepared->inner, pad, sizeof pad);
    for (size_t index = 0; index < sizeof pad; index++) pad[index] = block[index] ^ 0x5c;
    SHA256_Init(&prepared->outer);
    SHA256_Update(&prepared->outer, pad, sizeof pad);
    OPENSSL_cleanse(block, sizeof block);
    OPENSSL_cleanse(pad, sizeof pad);
}

/// Writes the 32 bytes of HMAC-SHA-256 of the `length` bytes at `message` under `prepared`'s key to `mac`.
/// `prepared` is only read: any number of threads may sign with one key at once.
static inline void screenplay_hmac_sha256(
    const screenplay_hmac_sha256_key *prepared, const unsigned char *message, size_t length, unsigned char *mac) {
    SHA256_CTX context = prepared->inner;
    unsigned char inner[32];
    SHA256_Update(&context, message, length);
    SHA256_Final(inner, &context);
    context = prepared->outer;
    SHA256_Update(&context, inner, sizeof inner);
    SHA256_Final(mac, &context);
    OPENSSL_cleanse(&context, sizeof context);
}
#pragma clang diagnostic pop
#endif
