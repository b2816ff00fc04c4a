#ifndef SCREENPLAY_CMICROHTTPD_SHIM_H
#define SCREENPLAY_CMICROHTTPD_SHIM_H

#include <stdint.h>
#include <stddef.h>
#include <stdarg.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// `MHD_start_daemon` is C-variadic, which Swift cannot call. Options travel as one
/// `MHD_OPTION_ARRAY` terminated by `MHD_OPTION_END`.
static inline struct MHD_Daemon *screenplay_mhd_start(
    unsigned int flags, uint16_t port,
    MHD_AccessHandlerCallback handler, void *handler_context,
    struct MHD_OptionItem *options)
{
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_context,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// `MHD_SIZE_UNKNOWN` is a macro Swift does not import.
static inline uint64_t screenplay_mhd_size_unknown(void) { return MHD_SIZE_UNKNOWN; }

#endif
