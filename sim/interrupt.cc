// SPDX-License-Identifier: MIT
#include "sim/interrupt.h"

#include <csignal>
#include <cstdio>

namespace nicsim::system {
namespace {

volatile std::sig_atomic_t g_signal = 0;

extern "C" void on_signal(int sig) {
    if (g_signal == 0)
        g_signal = sig;
}

} // namespace

void catch_interrupts() {
    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    // SA_RESETHAND: the second signal terminates as if no handler were installed.
    sa.sa_flags = SA_RESETHAND | SA_RESTART;
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
}

int interrupt_signal() {
    return g_signal;
}

const char* signal_name(int sig) {
    switch (sig) {
    case SIGINT:
        return "SIGINT";
    case SIGTERM:
        return "SIGTERM";
    default: {
        static char buf[32];
        std::snprintf(buf, sizeof buf, "signal %d", sig);
        return buf;
    }
    }
}

} // namespace nicsim::system
