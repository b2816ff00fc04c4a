#ifndef SCREENPLAY_CCRYPTO_SHIM_H
#define SCREENPLAY_CCRYPTO_SHIM_H
// OpenSSL's libcrypto, for the sign-in and pages' tokens: PBKDF2 password hashes, HMAC-signed cookies and tokens
// (a MAC context keyed once, `params.h` naming its digest), constant-time comparison and random salts.
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/params.h>
#include <openssl/rand.h>
#endif
