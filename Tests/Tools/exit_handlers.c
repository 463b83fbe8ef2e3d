// Loaded into species with LD_PRELOAD by a test: it says on stderr when C's
// exit handlers run, as OpenSSL's cleanup does at exit(3). species ends
// without them (Sources/species/SpeciesMain.swift).
#include <stdlib.h>
#include <unistd.h>

static void say(void) {
    static const char line[] = "exit handlers ran\n";
    (void)!write(STDERR_FILENO, line, sizeof line - 1);
}

__attribute__((constructor)) static void install(void) {
    atexit(say);
}
