#ifndef SCREENPLAY_CMIMALLOC_SHIM_H
#define SCREENPLAY_CMIMALLOC_SHIM_H
// mimalloc (Debian's libmimalloc), the movies server's allocator: linked before the C library, its malloc, free and
// realloc serve the whole process (Swift's objects and arrays, libmicrohttpd, SQLite, libpq), as they would under
// LD_PRELOAD. Its small objects carry no header of their own and its fast paths take fewer steps than glibc's
// (receipt: Benchmarks/History/56-mimalloc.md). Only the executable links it: the framework's libraries leave the
// allocator to the app.
#include <mimalloc.h>
#endif
