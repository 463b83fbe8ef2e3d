// Workarounds for FoundationNetworking's use of libcurl on Linux: see
// URLSessionFixes.c. They take effect by being linked into the executable;
// only the certificates to trust are handed over.

/// The CA bundle file and folder that FoundationNetworking's transfers
/// trust instead of libcurl's default; NULL keeps the default. Call before
/// the first request.
void url_session_fixes_trust(const char *file, const char *directory);

/// Ends the one transfer of FoundationNetworking's that libcurl runs for
/// `url`, at its next bytes, without cancelling its task, which then
/// completes by itself, as failed: 1 when it did; 0 when no such transfer,
/// or more than one, runs (the task is then the caller's to cancel). See
/// URLSessionFixes.c.
int url_session_fixes_end(const char *url);

/// Which workarounds have taken effect so far in this process, and the
/// first libcurl function that could not be found (NULL when none).
typedef struct {
    int socket_wrapper;
    int length_bound;
    int header_check;
    int transfer_end;
    const char *missing_function;
} url_session_fixes_status;

url_session_fixes_status url_session_fixes_check(void);
