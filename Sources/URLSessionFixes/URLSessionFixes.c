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
    CURLOPT_HEADERDATA = 10029,
    CURLOPT_PRIVATE = 10103,
    CURLOPT_HEADERFUNCTION = 20079,
    CURLINFO_PRIVATE = 0x100000 + 21,
    CURLMSG_DONE = 1,
    CURLE_OK = 0,
    CURLE_GOT_NOTHING = 52,
};

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
    int (*easy_setopt)(void *easy, int option, ...);
    int (*easy_getinfo)(void *easy, int info, ...);
    void (*easy_cleanup)(void *easy);
    curl_message *(*multi_info_read)(void *multi, int *remaining);
} real;

__attribute__((constructor)) static void find_libcurl(void) {
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
