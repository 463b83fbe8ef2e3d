// Workarounds for FoundationNetworking's use of libcurl on Linux: see
// URLSessionFixes.c. They take effect by being linked into the executable;
// nothing here needs to be called.
