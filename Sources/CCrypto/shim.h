#ifndef SCREENPLAY_CCRYPTO_SHIM_H
#define SCREENPLAY_CCRYPTO_SHIM_H
// OpenSSL's libcrypto, for the sign-in: PBKDF2 password hashes, HMAC-signed cookies, constant-time comparison and
// random salts.
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#endif
