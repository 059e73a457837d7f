/* SHA-256 (FIPS 180-4), for MANIFEST and the database's content hash. */
#ifndef UARCHGEN_SHA256_H
#define UARCHGEN_SHA256_H

#include <stddef.h>

/* Writes 64 lowercase hex digits and a NUL into hex. */
void sha256_hex(const void *data, size_t len, char hex[65]);

#endif
