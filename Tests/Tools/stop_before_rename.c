// Loaded into species with LD_PRELOAD by a test: species stops itself
// (SIGSTOP) when it is about to rename a temporary file over a cache entry,
// so that the test kills it there, however busy the machine is.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

int rename(const char *from, const char *to) {
    size_t length = strlen(to);
    if (length > 6 && strcmp(to + length - 6, ".entry") == 0) raise(SIGSTOP);
    int (*real)(const char *, const char *) = (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename");
    return real(from, to);
}
