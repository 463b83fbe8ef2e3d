// Workarounds for bugs in FoundationNetworking's libcurl glue
// (swift-corelibs-foundation, Sources/FoundationNetworking/URLSession/libcurl/),
// as shipped with Swift 6.3.1 on Linux.
//
// How they reach it: FoundationNetworking calls libcurl's exported functions
// (curl_easy_setopt, curl_multi_info_read, ...) through the dynamic linker.
// This file defines functions of the same names in the species executable,
// which the linker resolves first (Package.swift exports them from a dynamic
// build; a static build links FoundationNetworking's calls to them directly).
// Each does its small job and calls libcurl's own function, found with
// dlsym(RTLD_NEXT). They change nothing unless the callback involved is
// FoundationNetworking's own (see is_foundation_networking); any other user
// of libcurl in the process is passed through untouched.
//
// The constants below are libcurl's stable ABI values (curl/curl.h,
// curl/multi.h); this target builds without libcurl's headers.

#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "URLSessionFixes.h"

enum {
    CURL_POLL_NONE = 0,
    CURL_POLL_IN = 1,
    CURL_POLL_OUT = 2,
    CURL_POLL_REMOVE = 4,
    CURLMOPT_SOCKETFUNCTION = 20001,
    CURLOPT_HEADERDATA = 10029,
    CURLOPT_PRIVATE = 10103,
    CURLOPT_HEADERFUNCTION = 20079,
    CURLOPT_MAXFILESIZE_LARGE = 30117,
    CURLINFO_PRIVATE = 0x100000 + 21,
    CURLMSG_DONE = 1,
    CURLE_OK = 0,
    CURLE_GOT_NOTHING = 52,
};

typedef int (*socket_callback)(void *easy, int socket, int what, void *userdata, void *socket_data);
typedef size_t (*header_callback)(char *buffer, size_t size, size_t count, void *userdata);

/// The message curl_multi_info_read returns (CURLMsg).
typedef struct {
    int msg;
    void *easy_handle;
    union {
        void *whatever;
        int result;
    } data;
} curl_message;

/// libcurl's own functions, found once, before main.
static struct {
    int (*multi_setopt)(void *multi, int option, ...);
    int (*easy_setopt)(void *easy, int option, ...);
    int (*easy_getinfo)(void *easy, int info, ...);
    void (*easy_cleanup)(void *easy);
    curl_message *(*multi_info_read)(void *multi, int *remaining);
} real;

__attribute__((constructor)) static void find_libcurl(void) {
    real.multi_setopt = dlsym(RTLD_NEXT, "curl_multi_setopt");
    real.easy_setopt = dlsym(RTLD_NEXT, "curl_easy_setopt");
    real.easy_getinfo = dlsym(RTLD_NEXT, "curl_easy_getinfo");
    real.easy_cleanup = dlsym(RTLD_NEXT, "curl_easy_cleanup");
    real.multi_info_read = dlsym(RTLD_NEXT, "curl_multi_info_read");
}

/// Whether `function` is FoundationNetworking's: it lies in
/// libFoundationNetworking.so, or in this executable when the Swift runtime
/// is linked statically (FoundationNetworking is then part of it).
static int is_foundation_networking(void *function) {
    Dl_info found, own;
    if (!function || !dladdr(function, &found) || !dladdr((void *)is_foundation_networking, &own)) return 0;
    if (found.dli_fbase == own.dli_fbase) return 1;
    const char *name = strrchr(found.dli_fname, '/');
    return strcmp(name ? name + 1 : found.dli_fname, "libFoundationNetworking.so") == 0;
}

// MARK: - Waiting without spinning
//
// Not reported upstream that we could find; _MultiHandle.register(socket:...)
// in MultiHandle.swift, unchanged on main as of 2026-08. libcurl's socket
// callback tells the application which readiness to wait for on a socket:
// first OUT (to learn that the connection is made), then IN only (for the
// answer). FoundationNetworking's callback adds a DispatchSource for each
// readiness asked for, but never cancels one: after IN replaces OUT, the
// write source stays armed on a socket that is always writable, and fires
// without pause, each firing a call of curl_multi_socket_action. A core is
// busy until the first byte arrives, on every new connection (all of the
// wall time in `make bench`, with the answer 2 s away).
//
// The wrapper remembers the readiness last asked for on each socket. When a
// new interest drops one that was asked for (OUT to IN), it hands
// FoundationNetworking a removal first, which cancels both sources and
// releases their record, then the new interest with no record, so that a
// fresh record with only the sources asked for is made (and assigned to the
// socket with curl_multi_assign by FoundationNetworking itself). libcurl
// always removes a socket before closing it, which resets what is
// remembered of its number.

#define TRACKED_SOCKETS 65536

static _Atomic(socket_callback) foundation_socket_callback;
static _Atomic unsigned char interest[TRACKED_SOCKETS];

static int socket_wrapper(void *easy, int socket, int what, void *userdata, void *socket_data) {
    socket_callback callback = foundation_socket_callback;
    if (socket < 0 || socket >= TRACKED_SOCKETS) return callback(easy, socket, what, userdata, socket_data);
    int before = atomic_exchange(&interest[socket], what == CURL_POLL_REMOVE ? CURL_POLL_NONE : what);
    int drops = before & ~what & (CURL_POLL_IN | CURL_POLL_OUT);
    if (what != CURL_POLL_REMOVE && what != CURL_POLL_NONE && drops && socket_data) {
        callback(easy, socket, CURL_POLL_REMOVE, userdata, socket_data);
        return callback(easy, socket, what, userdata, NULL);
    }
    return callback(easy, socket, what, userdata, socket_data);
}

int curl_multi_setopt(void *multi, int option, ...) {
    va_list arguments;
    va_start(arguments, option);
    void *value = va_arg(arguments, void *);
    va_end(arguments);
    if (option == CURLMOPT_SOCKETFUNCTION && is_foundation_networking(value)) {
        foundation_socket_callback = (socket_callback)value;
        value = (void *)socket_wrapper;
    }
    return real.multi_setopt(multi, option, value);
}

// MARK: - A Content-Length past Int64
//
// Not reported upstream that we could find; _EasyHandle.setupCallbacks in
// EasyHandle.swift, unchanged on main as of 2026-08. FoundationNetworking's
// header callback reads the announced length as a double
// (CURLINFO_CONTENT_LENGTH_DOWNLOAD) and converts it with Int64(_:), which
// traps when a server announces 2^63 - 512 bytes or more: any server could
// stop the process with one header. libcurl checks a Content-Length against
// CURLOPT_MAXFILESIZE_LARGE as it parses it, before the callback hears of
// it, and fails the transfer with CURLE_FILESIZE_EXCEEDED ("Maximum file
// size exceeded"), which FoundationNetworking reports as URLError.unknown
// with that message. The limit is set on every handle whose header callback
// is FoundationNetworking's; it is far above any length a caller could ask
// to accept.

#define LARGEST_CONTENT_LENGTH ((long long)1 << 62)

// MARK: - A response that ends inside its headers
//
// swift-corelibs-foundation #5285 (fixed upstream by #5286, not in 6.3.1):
// when a server sends a status line and closes the connection, libcurl
// completes the transfer with CURLE_OK, and _NativeProtocol.transferCompleted
// stops the process with "Fatal error: Transfer completed, but there's no
// response." To tell that case apart, FoundationNetworking's header callback
// is wrapped: it notes whether the header block of the current response
// (from its status line to the empty line) is still open. When a transfer
// completes "OK" with its headers open, curl_multi_info_read reports
// CURLE_GOT_NOTHING instead, which FoundationNetworking turns into
// URLError.badServerResponse like any other broken answer.
//
// The state lives in a small record per easy handle, passed to the wrapper
// as its HEADERDATA (holding FoundationNetworking's own pointer) and found
// again through CURLOPT_PRIVATE, which FoundationNetworking does not use;
// curl_easy_cleanup frees it.

typedef struct {
    void *foundation_userdata;
    int wrapped;
    int headers_open;
} header_state;

static _Atomic(header_callback) foundation_header_callback;

static header_state *state_of(void *easy) {
    header_state *state = NULL;
    real.easy_getinfo(easy, CURLINFO_PRIVATE, &state);
    return state;
}

static size_t header_wrapper(char *buffer, size_t size, size_t count, void *userdata) {
    header_state *state = userdata;
    size_t length = size * count;
    if (length >= 5 && memcmp(buffer, "HTTP/", 5) == 0) {
        state->headers_open = 1;
    } else if ((length == 2 && buffer[0] == '\r' && buffer[1] == '\n') || (length == 1 && buffer[0] == '\n')) {
        state->headers_open = 0;
    }
    return foundation_header_callback(buffer, size, count, state->foundation_userdata);
}

int curl_easy_setopt(void *easy, int option, ...) {
    va_list arguments;
    va_start(arguments, option);
    // Every option's value is one machine word (long, pointer, function or
    // curl_off_t) on the 64-bit platforms Swift supports on Linux.
    void *value = va_arg(arguments, void *);
    va_end(arguments);
    if (option == CURLOPT_HEADERDATA) {
        // FoundationNetworking sets HEADERDATA, then HEADERFUNCTION.
        header_state *state = state_of(easy);
        if (!state && (state = calloc(1, sizeof *state))) real.easy_setopt(easy, CURLOPT_PRIVATE, state);
        if (state) state->foundation_userdata = value;
        if (state && state->wrapped) return CURLE_OK;
    } else if (option == CURLOPT_HEADERFUNCTION) {
        header_state *state = state_of(easy);
        int wrap = state && is_foundation_networking(value);
        if (state && state->wrapped != wrap) {
            real.easy_setopt(easy, CURLOPT_HEADERDATA, wrap ? (void *)state : state->foundation_userdata);
            state->wrapped = wrap;
        }
        if (wrap) {
            foundation_header_callback = (header_callback)value;
            value = (void *)header_wrapper;
            real.easy_setopt(easy, CURLOPT_MAXFILESIZE_LARGE, LARGEST_CONTENT_LENGTH);
        }
    }
    return real.easy_setopt(easy, option, value);
}

curl_message *curl_multi_info_read(void *multi, int *remaining) {
    curl_message *message = real.multi_info_read(multi, remaining);
    if (message && message->msg == CURLMSG_DONE && message->data.result == CURLE_OK) {
        header_state *state = state_of(message->easy_handle);
        if (state && state->wrapped && state->headers_open) message->data.result = CURLE_GOT_NOTHING;
    }
    return message;
}

void curl_easy_cleanup(void *easy) {
    header_state *state = state_of(easy);
    real.easy_cleanup(easy);
    free(state);
}
