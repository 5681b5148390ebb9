// Non-variadic wrappers over libmicrohttpd 0.9.75 for Swift.
//
// Swift cannot call C variadic functions, so every variadic MHD entry point that alertd needs sits
// behind one small `static inline` function here, prefixed `alertd_mhd_`. Nothing else belongs in
// this header: the Swift module MicroHTTP is the only code that sees C.
#ifndef ALERTD_CMICROHTTPD_SHIM_H
#define ALERTD_CMICROHTTPD_SHIM_H

#include <stdint.h>
#include <stddef.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// Everything `alertd_mhd_start` passes to MHD_start_daemon as options.
typedef struct alertd_mhd_config {
    /// Worker threads, each with its own poll() loop.
    unsigned int thread_pool_size;
    /// Connections accepted at once, in total; past it MHD closes a socket handed over with
    /// MHD_add_connection at once. (The per-client limit is counted in Swift, by /64 for IPv6.)
    unsigned int connection_limit;
    /// Memory for one connection's request line, headers, cookies and buffers (one pool, half of
    /// it the read buffer); bounds the head MHD can parse.
    size_t connection_memory_limit;
    /// Seconds of inactivity before an idle (not suspended) connection is closed.
    unsigned int connection_timeout_seconds;
} alertd_mhd_config;

/// Starts a daemon with internal poll() worker threads (never epoll: one epoll thread stalls at
/// multiples of 128 connections on 0.9.75) and suspend/resume allowed, but no listening socket:
/// MHD's poll loop accepts one connection per iteration, so a burst of new clients waits behind
/// busy iterations (measured: p99 above 1 s for 1,000 new connections on 2 threads). The caller
/// accepts on its own thread and hands each socket over with MHD_add_connection, which spreads
/// them over the workers and wakes them. Returns NULL on failure.
static inline struct MHD_Daemon *
alertd_mhd_start(const alertd_mhd_config *config,
                 MHD_AccessHandlerCallback handler, void *handler_cls,
                 MHD_RequestCompletedCallback completed, void *completed_cls,
                 MHD_NotifyConnectionCallback notify, void *notify_cls,
                 void *(*request_line)(void *cls, const char *uri, struct MHD_Connection *connection),
                 void *request_line_cls)
{
    unsigned int flags = MHD_USE_POLL_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG
                         | MHD_USE_NO_LISTEN_SOCKET | MHD_USE_ITC;
    struct MHD_OptionItem options[] = {
        { MHD_OPTION_THREAD_POOL_SIZE, (intptr_t) config->thread_pool_size, NULL },
        { MHD_OPTION_CONNECTION_LIMIT, (intptr_t) config->connection_limit, NULL },
        { MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t) config->connection_memory_limit, NULL },
        { MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t) config->connection_timeout_seconds, NULL },
        { MHD_OPTION_NOTIFY_COMPLETED, (intptr_t) completed, completed_cls },
        { MHD_OPTION_NOTIFY_CONNECTION, (intptr_t) notify, notify_cls },
        /* Called with the raw request target (query included, not yet percent-decoded). */
        { MHD_OPTION_URI_LOG_CALLBACK, (intptr_t) request_line, request_line_cls },
        { MHD_OPTION_END, 0, NULL },
    };
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// The client's address, or NULL.
static inline const struct sockaddr *
alertd_mhd_client_address(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

/// What the connection-notify callback stored in the connection's socket context, or NULL.
static inline void *
alertd_mhd_socket_context(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

/// The connection's socket, or -1.
static inline int
alertd_mhd_connection_fd(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// Bytes of the request line and header lines (valid once the head is received), or 0.
static inline size_t
alertd_mhd_request_head_size(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    return info == NULL ? 0 : info->header_size;
}

#endif
