// libsystemc.so defines main() and expects sc_main(); test executables use GoogleTest's main
// instead, so this definition only satisfies the linker and must never run.
#include <cstdio>
#include <cstdlib>

extern "C" int sc_main(int, char**) {
    std::fprintf(stderr, "nicsim tests: sc_main must not be called (tests use gtest main)\n");
    std::abort();
}
