// Workarounds for FoundationNetworking's use of libcurl on Linux: see
// URLSessionFixes.c. They take effect by being linked into the executable;
// only the certificates to trust are handed over.

/// The CA bundle file and folder that FoundationNetworking's transfers
/// trust instead of libcurl's default; NULL keeps the default. Call before
/// the first request.
void url_session_fixes_trust(const char *file, const char *directory);

/// Which workarounds have taken effect so far in this process, and the
/// first libcurl function that could not be found (NULL when none).
typedef struct {
    int socket_wrapper;
    int length_bound;
    int header_check;
    const char *missing_function;
} url_session_fixes_status;

url_session_fixes_status url_session_fixes_check(void);
