// SPDX-License-Identifier: MIT
#include "trace/fst_convert.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <vector>

extern char** environ;

namespace nicsim::trace {

bool is_fst_path(const std::string& path) {
    return path.size() > 4 && path.compare(path.size() - 4, 4, ".fst") == 0;
}

std::string find_vcd2fst() {
    const char* env = std::getenv("PATH");
    std::istringstream dirs(env ? env : "/usr/bin:/bin");
    for (std::string d; std::getline(dirs, d, ':');) {
        const std::string p = (d.empty() ? "." : d) + "/vcd2fst";
        if (access(p.c_str(), X_OK) == 0)
            return p;
    }
    throw std::runtime_error("writing FST needs vcd2fst, which is not in PATH (Debian package "
                             "gtkwave; or write a .vcd and convert it yourself)");
}

void vcd_to_fst(const std::string& vcd2fst, const std::string& vcd, const std::string& fst) {
    std::vector<std::string> args = {vcd2fst, "-v", vcd, "-f", fst};
    std::vector<char*> argv;
    for (auto& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    // vcd2fst's progress chatter would land in the middle of the text report: to /dev/null.
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, vcd2fst.c_str(), &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    int status = 0;
    if (rc == 0)
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
    if (rc == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        std::remove(vcd.c_str());
        return;
    }
    const std::string kept = fst.substr(0, fst.size() - 4) + ".vcd";
    std::rename(vcd.c_str(), kept.c_str());
    std::ostringstream msg;
    msg << "cannot write FST file '" << fst << "': " << vcd2fst;
    if (rc != 0)
        msg << " did not start (" << std::strerror(rc) << ")";
    else if (WIFEXITED(status))
        msg << " exited " << WEXITSTATUS(status);
    else
        msg << " was killed by signal " << WTERMSIG(status);
    msg << "; the waveform is kept as VCD in '" << kept << "'";
    throw std::runtime_error(msg.str());
}

} // namespace nicsim::trace
