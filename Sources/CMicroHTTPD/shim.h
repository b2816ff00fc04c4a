#ifndef SCREENPLAY_CMICROHTTPD_SHIM_H
#define SCREENPLAY_CMICROHTTPD_SHIM_H

#include <stdint.h>
#include <stddef.h>
#include <stdarg.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>
// For the event streams taken over from libmicrohttpd (AdoptedStreams.swift); Glibc does not export these.
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>

/// `MHD_start_daemon` is C-variadic, which Swift cannot call. Options travel as one
/// `MHD_OPTION_ARRAY` terminated by `MHD_OPTION_END`.
static inline struct MHD_Daemon *screenplay_mhd_start(
    unsigned int flags, uint16_t port,
    MHD_AcceptPolicyCallback accept_policy, void *accept_policy_context,
    MHD_AccessHandlerCallback handler, void *handler_context,
    struct MHD_OptionItem *options)
{
    return MHD_start_daemon(flags, port, accept_policy, accept_policy_context, handler, handler_context,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// `MHD_SIZE_UNKNOWN` is a macro Swift does not import.
static inline uint64_t screenplay_mhd_size_unknown(void) { return MHD_SIZE_UNKNOWN; }

/// `MHD_CONTENT_READER_END_OF_STREAM` is a cast macro Swift does not import.
static inline ssize_t screenplay_mhd_end_of_stream(void) { return MHD_CONTENT_READER_END_OF_STREAM; }

/// `MHD_CONTENT_READER_END_WITH_ERROR` is a cast macro Swift does not import.
static inline ssize_t screenplay_mhd_end_with_error(void) { return MHD_CONTENT_READER_END_WITH_ERROR; }

/// `MHD_set_connection_option` is C-variadic; this sets one connection's idle timeout in seconds
/// (0 = never), which event streams need because they are idle by nature.
static inline enum MHD_Result screenplay_mhd_set_connection_timeout(
    struct MHD_Connection *connection, unsigned int seconds)
{
    return MHD_set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, seconds);
}

/// The client's address from `MHD_get_connection_info`, whose result is a union Swift reads poorly.
static inline const struct sockaddr *screenplay_mhd_client_address(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

/// The connection's socket from `MHD_get_connection_info` (C-variadic), or -1.
static inline int screenplay_mhd_connection_socket(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

#endif
