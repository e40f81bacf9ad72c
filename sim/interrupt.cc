// SPDX-License-Identifier: MIT
#include "sim/interrupt.h"

#include <csignal>
#include <cstdio>
#include <unistd.h>

namespace nicsim::system {
namespace {

volatile std::sig_atomic_t g_signal = 0;
volatile std::sig_atomic_t g_told = 0;
bool g_installed = false;

extern "C" void on_signal(int sig) {
    if (g_signal == 0)
        g_signal = sig;
}

extern "C" void on_signal_held(int sig) {
    if (g_signal == 0) {
        g_signal = sig;
        return;
    }
    if (g_told)
        return;
    g_told = 1;
    static const char msg[] =
        "nicsim: finishing the trace files first, so they end complete; the run then stops\n";
    [[maybe_unused]] const ssize_t n = write(STDERR_FILENO, msg, sizeof msg - 1);
}

void install(void (*handler)(int), int flags) {
    struct sigaction sa {};
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = flags;
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
}

} // namespace

void catch_interrupts() {
    g_installed = true;
    // SA_RESETHAND: the second signal terminates as if no handler were installed.
    install(on_signal, SA_RESETHAND | SA_RESTART);
}

interrupts_held::interrupts_held() {
    if (g_installed)
        install(on_signal_held, SA_RESTART);
}

interrupts_held::~interrupts_held() {
    if (!g_installed)
        return;
    if (g_signal == 0)
        install(on_signal, SA_RESETHAND | SA_RESTART);
    else
        install(SIG_DFL, 0);
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
