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
// dlsym(RTLD_NEXT): libcurl is always a shared library here, even when the
// Swift runtime is linked in. A fully static (musl) build has no RTLD_NEXT
// to find libcurl's functions by; it would need libcurl's own
// CURLOPT_HEADERFUNCTION and socket callbacks set from Swift instead.
//
// Only what FoundationNetworking made is changed: a socket, header or
// write callback is wrapped only when it lies in FoundationNetworking
// (is_foundation_networking), and the state kept for an easy handle lives
// in a table of this file's own, made and freed here. Another user of
// libcurl in the process sees its calls passed through as they are.
//
// The constants below are libcurl's stable ABI values (curl/curl.h,
// curl/multi.h); this target builds without libcurl's headers.

#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "URLSessionFixes.h"

enum {
    CURL_POLL_NONE = 0,
    CURL_POLL_IN = 1,
    CURL_POLL_OUT = 2,
    CURL_POLL_REMOVE = 4,
    CURLMOPT_SOCKETFUNCTION = 20001,
    CURLOPT_WRITEDATA = 10001,
    CURLOPT_URL = 10002,
    CURLOPT_ERRORBUFFER = 10010,
    CURLOPT_WRITEFUNCTION = 20011,
    CURLOPT_CAINFO = 10065,
    CURLOPT_CAPATH = 10097,
    CURLOPT_HEADERDATA = 10029,
    CURLOPT_HEADERFUNCTION = 20079,
    CURLOPT_MAXFILESIZE_LARGE = 30117,
    CURLMSG_DONE = 1,
    CURLE_OK = 0,
    CURLE_FAILED_INIT = 2,
    CURLE_WRITE_ERROR = 23,
    CURLE_GOT_NOTHING = 52,
    CURLM_INTERNAL_ERROR = 4,
    CURL_ERROR_SIZE = 256,
};

typedef int (*socket_callback)(void *easy, int socket, int what, void *userdata, void *socket_data);
/// libcurl's header and write callbacks have the same type.
typedef size_t (*data_callback)(char *buffer, size_t size, size_t count, void *userdata);

/// The message curl_multi_info_read returns (CURLMsg).
typedef struct {
    int msg;
    void *easy_handle;
    union {
        void *whatever;
        int result;
    } data;
} curl_message;

// MARK: - libcurl's own functions

static struct {
    int (*multi_setopt)(void *multi, int option, ...);
    int (*easy_setopt)(void *easy, int option, ...);
    void (*easy_cleanup)(void *easy);
    int (*multi_add_handle)(void *multi, void *easy);
    curl_message *(*multi_info_read)(void *multi, int *remaining);
} real;

static const char *missing_function;

/// Finds libcurl's functions once, before main. One that cannot be found
/// is named once on stderr; the stand-in for it then fails as libcurl
/// fails a call it cannot make, and never calls through a null pointer.
__attribute__((constructor)) static void find_libcurl(void) {
    struct {
        void **slot;
        const char *name;
    } functions[] = {
        {(void **)&real.multi_setopt, "curl_multi_setopt"},
        {(void **)&real.easy_setopt, "curl_easy_setopt"},
        {(void **)&real.easy_cleanup, "curl_easy_cleanup"},
        {(void **)&real.multi_add_handle, "curl_multi_add_handle"},
        {(void **)&real.multi_info_read, "curl_multi_info_read"},
    };
    for (size_t index = 0; index < sizeof functions / sizeof *functions; index++) {
        *functions[index].slot = dlsym(RTLD_NEXT, functions[index].name);
        if (!*functions[index].slot && !missing_function) missing_function = functions[index].name;
    }
}

static void report_missing(void) {
    static atomic_flag reported = ATOMIC_FLAG_INIT;
    if (atomic_flag_test_and_set(&reported)) return;
    char line[200];
    int length = snprintf(line, sizeof line, "warning: libcurl's %s was not found; species cannot use the network\n", missing_function);
    if (length > 0) (void)!write(STDERR_FILENO, line, (size_t)length < sizeof line ? (size_t)length : sizeof line - 1);
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

// What has been engaged so far, for `species __selfcheck`.
static atomic_int engaged_socket_wrapper, engaged_length_bound, engaged_header_check, engaged_transfer_end;

// MARK: - The state of an easy handle
//
// One record per easy handle that set a header or write callback or an
// error buffer, in a list of this file's own, keyed by the handle. Records
// are few (one per transfer in flight) and looked up at setopt, at
// completion and at cleanup; the callbacks are handed their record directly.

/// The callbacks wrapped, and the options that set them and their data.
enum { HEADER, WRITE, CALLBACKS };
static const struct {
    int function, data;
} callback_options[CALLBACKS] = {
    [HEADER] = {CURLOPT_HEADERFUNCTION, CURLOPT_HEADERDATA},
    [WRITE] = {CURLOPT_WRITEFUNCTION, CURLOPT_WRITEDATA},
};

typedef struct record {
    void *easy;
    struct record *next;
    /// FoundationNetworking's HEADERDATA and WRITEDATA, handed on to its
    /// callbacks.
    void *foundation_userdata[CALLBACKS];
    /// FoundationNetworking's error buffer (CURL_ERROR_SIZE bytes), whose
    /// text becomes the message of the URLError.
    char *error_buffer;
    /// Which callbacks are FoundationNetworking's, wrapped.
    int wrapped[CALLBACKS];
    /// The transfer's URL (a copy), by which url_session_fixes_end finds it.
    char *url;
    /// libcurl runs the transfer: it was added to a multi handle, and its
    /// completion has not been read.
    int running;
    /// url_session_fixes_end ended the transfer.
    atomic_int ended;
    /// The header block of the current response is still open.
    int headers_open;
    /// Lines and bytes of the current response's header block.
    unsigned long header_lines, header_bytes;
    /// Why the headers were refused; NULL while they were not.
    const char *refusal;
} record;

static pthread_mutex_t records_lock = PTHREAD_MUTEX_INITIALIZER;
static record *records;

/// The record of `easy`; made when `create` and there is none.
static record *record_of(void *easy, int create) {
    pthread_mutex_lock(&records_lock);
    record *found = records;
    while (found && found->easy != easy) found = found->next;
    if (!found && create && (found = calloc(1, sizeof *found))) {
        found->easy = easy;
        found->next = records;
        records = found;
    }
    pthread_mutex_unlock(&records_lock);
    return found;
}

static void forget(void *easy) {
    pthread_mutex_lock(&records_lock);
    for (record **link = &records; *link; link = &(*link)->next) {
        if ((*link)->easy == easy) {
            record *gone = *link;
            *link = gone->next;
            free(gone->url);
            free(gone);
            break;
        }
    }
    pthread_mutex_unlock(&records_lock);
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
// busy until the first byte arrives, on every new connection.
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
    if (!real.multi_setopt) {
        report_missing();
        return CURLM_INTERNAL_ERROR;
    }
    if (option == CURLMOPT_SOCKETFUNCTION && is_foundation_networking(value)) {
        foundation_socket_callback = (socket_callback)value;
        value = (void *)socket_wrapper;
        engaged_socket_wrapper = 1;
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

// MARK: - The header block of a response
//
// A response that ends inside its headers: swift-corelibs-foundation #5285
// (fixed upstream by #5286, not in 6.3.1). When a server sends a status line
// and closes the connection, libcurl completes the transfer with CURLE_OK,
// and _NativeProtocol.transferCompleted stops the process with "Fatal
// error: Transfer completed, but there's no response." The wrapper of
// FoundationNetworking's header callback notes whether the header block of
// the current response (from its status line to the empty line) is still
// open; when a transfer completes "OK" with its headers open,
// curl_multi_info_read reports CURLE_GOT_NOTHING instead, which
// FoundationNetworking turns into URLError.badServerResponse like any other
// broken answer.
//
// A response with a long header block: FoundationNetworking handles each
// header line in time that grows with the lines before it (20,000 lines
// take 9 s; curl reads them in 16 ms), and a task cannot be cancelled while
// it does. No upstream issue was found. The wrapper counts the lines and
// bytes of each response's header block and stops the transfer past
// MAX_HEADER_LINES or MAX_HEADER_BYTES, far above the ten or so lines SWAPI
// sends; the URLError then carries HEADER_REFUSAL_PREFIX and the limit in
// its message (Swift: URLSessionTransport.swift).

#define MAX_HEADER_LINES 500
#define MAX_HEADER_BYTES (100 * 1024)
#define HEADER_REFUSAL_PREFIX "the response has more than "

static _Atomic(data_callback) foundation_callbacks[CALLBACKS];

static size_t header_wrapper(char *buffer, size_t size, size_t count, void *userdata) {
    record *state = userdata;
    // Less than `length` fails the transfer (CURLE_WRITE_ERROR).
    if (state->ended) return 0;
    size_t length = size * count;
    if (length >= 5 && memcmp(buffer, "HTTP/", 5) == 0) {
        state->headers_open = 1;
        state->header_lines = 0;
        state->header_bytes = 0;
    } else if ((length == 2 && buffer[0] == '\r' && buffer[1] == '\n') || (length == 1 && buffer[0] == '\n')) {
        state->headers_open = 0;
    }
    state->header_lines += 1;
    state->header_bytes += length;
    if (state->header_lines > MAX_HEADER_LINES) {
        state->refusal = HEADER_REFUSAL_PREFIX "500 header lines";
    } else if (state->header_bytes > MAX_HEADER_BYTES) {
        state->refusal = HEADER_REFUSAL_PREFIX "100 KiB of headers";
    }
    if (state->refusal) return 0;
    return foundation_callbacks[HEADER](buffer, size, count, state->foundation_userdata[HEADER]);
}

// MARK: - Ending a transfer without cancelling its task
//
// URLSessionTask.cancel() first waits for the session's queue
// (workQueue.sync in URLSessionTask.swift), which FoundationNetworking keeps
// busy handing over the data of every transfer in flight: the pages asked
// beside a page 1 that turned out to hold the whole listing were read to
// their end before their cancellation came through, and from a server that
// kept sending, never (docs/performance.md, "Memory in proportion to the
// answer, again"; HostileServerTests, fault=flood-beside). url_session_fixes_end ends a transfer at once
// instead: it marks the one transfer libcurl runs for that URL, whose next
// header line or body bytes its wrappers then refuse, and whose
// completion, should libcurl report it "OK" after the mark, is reported as
// that refusal. FoundationNetworking completes the task once,
// as failed (CURLE_WRITE_ERROR), as it does for the header refusal above.
// The task must not be cancelled as well: a cancellation that comes before
// that completion reaches the delegate queue completes the task a second
// time, and its second removal from the session's task registry traps
// ("Trying to remove task, but it's not in the registry";
// TaskRegistry.swift). A transfer that sends nothing more after the mark
// ends at FoundationNetworking's own idle limit.
//
// The species executable fetches one URL once at a time (one fetch for a
// question however many ask it); should two transfers of one URL run, or
// none, nothing is marked, and the caller cancels the task.

static size_t write_wrapper(char *buffer, size_t size, size_t count, void *userdata) {
    record *state = userdata;
    if (state->ended) return 0;
    return foundation_callbacks[WRITE](buffer, size, count, state->foundation_userdata[WRITE]);
}

static const data_callback wrappers[CALLBACKS] = {[HEADER] = header_wrapper, [WRITE] = write_wrapper};

int url_session_fixes_end(const char *url) {
    pthread_mutex_lock(&records_lock);
    record *found = NULL;
    int matches = 0;
    for (record *each = records; each; each = each->next) {
        if (each->running && !each->ended && each->url && strcmp(each->url, url) == 0) {
            found = each;
            matches += 1;
        }
    }
    if (matches == 1) found->ended = 1;
    pthread_mutex_unlock(&records_lock);
    return matches == 1;
}

int curl_easy_setopt(void *easy, int option, ...) {
    va_list arguments;
    va_start(arguments, option);
    // Every option's value is one machine word (long, pointer, function or
    // curl_off_t) on the 64-bit platforms Swift supports on Linux.
    void *value = va_arg(arguments, void *);
    va_end(arguments);
    if (!real.easy_setopt) {
        report_missing();
        return CURLE_FAILED_INIT;
    }
    if (option == CURLOPT_ERRORBUFFER) {
        record *state = record_of(easy, value != NULL);
        if (state) state->error_buffer = value;
    } else if (option == CURLOPT_URL) {
        record *state = record_of(easy, 0);
        if (state) {
            pthread_mutex_lock(&records_lock);
            free(state->url);
            state->url = value ? strdup(value) : NULL;
            state->ended = 0;
            pthread_mutex_unlock(&records_lock);
        }
    }
    for (int kind = 0; kind < CALLBACKS; kind++) {
        if (option == callback_options[kind].data) {
            // FoundationNetworking sets a callback's data, then the callback.
            record *state = record_of(easy, 1);
            if (state) state->foundation_userdata[kind] = value;
            if (state && state->wrapped[kind]) return CURLE_OK;
        } else if (option == callback_options[kind].function) {
            record *state = record_of(easy, 0);
            int wrap = state && is_foundation_networking(value);
            if (state && state->wrapped[kind] != wrap) {
                real.easy_setopt(easy, callback_options[kind].data, wrap ? (void *)state : state->foundation_userdata[kind]);
                state->wrapped[kind] = wrap;
            }
            if (!wrap) continue;
            foundation_callbacks[kind] = (data_callback)value;
            value = (void *)wrappers[kind];
            if (kind == WRITE) {
                engaged_transfer_end = 1;
            } else {
                engaged_header_check = 1;
                if (real.easy_setopt(easy, CURLOPT_MAXFILESIZE_LARGE, LARGEST_CONTENT_LENGTH) == CURLE_OK) engaged_length_bound = 1;
            }
        }
    }
    return real.easy_setopt(easy, option, value);
}

curl_message *curl_multi_info_read(void *multi, int *remaining) {
    if (!real.multi_info_read) {
        report_missing();
        if (remaining) *remaining = 0;
        return NULL;
    }
    curl_message *message = real.multi_info_read(multi, remaining);
    if (!message || message->msg != CURLMSG_DONE) return message;
    record *state = record_of(message->easy_handle, 0);
    if (!state || !state->wrapped[HEADER]) return message;
    pthread_mutex_lock(&records_lock);
    state->running = 0;
    if (state->ended && message->data.result == CURLE_OK) message->data.result = CURLE_WRITE_ERROR;
    pthread_mutex_unlock(&records_lock);
    if (state->refusal && message->data.result != CURLE_OK && state->error_buffer) {
        snprintf(state->error_buffer, CURL_ERROR_SIZE, "%s", state->refusal);
    } else if (message->data.result == CURLE_OK && state->headers_open) {
        message->data.result = CURLE_GOT_NOTHING;
    }
    // The handle may be used again for another transfer.
    state->refusal = NULL;
    state->headers_open = 0;
    return message;
}

void curl_easy_cleanup(void *easy) {
    if (!real.easy_cleanup) {
        report_missing();
        return;
    }
    real.easy_cleanup(easy);
    forget(easy);
}

// MARK: - Certificates to trust
//
// FoundationNetworking reads URLSessionCertificateAuthorityInfoFile on
// Android only (_EasyHandle.setCARootBundlePath), and Debian's libcurl has
// its bundle's path built in: OpenSSL's SSL_CERT_FILE and SSL_CERT_DIR and
// curl's CURL_CA_BUNDLE are read by the tools, not by libcurl. The species
// executable hands them here; they are set on each transfer of
// FoundationNetworking's as it starts, after FoundationNetworking's own
// options.

static char *trusted_file, *trusted_directory;

void url_session_fixes_trust(const char *file, const char *directory) {
    free(trusted_file);
    free(trusted_directory);
    trusted_file = file ? strdup(file) : NULL;
    trusted_directory = directory ? strdup(directory) : NULL;
}

int curl_multi_add_handle(void *multi, void *easy) {
    if (!real.multi_add_handle || !real.easy_setopt) {
        report_missing();
        return CURLM_INTERNAL_ERROR;
    }
    record *state = record_of(easy, 0);
    if (state && state->wrapped[HEADER]) {
        if (trusted_file) real.easy_setopt(easy, CURLOPT_CAINFO, trusted_file);
        if (trusted_directory) real.easy_setopt(easy, CURLOPT_CAPATH, trusted_directory);
    }
    if (state && state->wrapped[WRITE]) {
        pthread_mutex_lock(&records_lock);
        state->running = 1;
        pthread_mutex_unlock(&records_lock);
    }
    return real.multi_add_handle(multi, easy);
}

// MARK: - What is engaged

url_session_fixes_status url_session_fixes_check(void) {
    return (url_session_fixes_status){
        .socket_wrapper = engaged_socket_wrapper,
        .length_bound = engaged_length_bound,
        .header_check = engaged_header_check,
        .transfer_end = engaged_transfer_end,
        .missing_function = missing_function,
    };
}
