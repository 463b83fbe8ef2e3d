// Loaded into species with LD_PRELOAD by a test: species stops itself
// (SIGSTOP) when it finds the lock of its question held by another run, so
// that the test acts on the holder while this run waits for it, however
// busy the machine is. The first lock found held is the sweep's (the
// housekeeping of its first write tries every lock file); the second, the
// question's own.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <sys/file.h>

int flock(int descriptor, int operation) {
    static int held = 0;
    int (*real)(int, int) = (int (*)(int, int))dlsym(RTLD_NEXT, "flock");
    int result = real(descriptor, operation);
    if (result != 0 && errno == EWOULDBLOCK && ++held == 2) {
        raise(SIGSTOP);
        errno = EWOULDBLOCK;
    }
    return result;
}
