// SPDX-License-Identifier: MIT
#include "tools/io/input_file.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace nicsim::io {
namespace {

const char* kind_of(mode_t m) {
    if (S_ISFIFO(m))
        return "a FIFO";
    if (S_ISCHR(m))
        return "a character device";
    if (S_ISBLK(m))
        return "a block device";
    if (S_ISSOCK(m))
        return "a socket";
    if (S_ISDIR(m))
        return "a directory";
    return "not a regular file";
}

void check_regular(const std::string& file, const struct stat& st) {
    if (!S_ISREG(st.st_mode))
        throw input_file_error(file + ": is " + kind_of(st.st_mode) +
                               ", not a regular file (nicsim reads only regular files: one "
                               "that never ends would block or fill memory)");
}

std::string size_text(std::uint64_t bytes) {
    if (bytes >= (std::uint64_t(1) << 20) && bytes % (std::uint64_t(1) << 20) == 0)
        return std::to_string(bytes >> 20) + " MiB";
    return std::to_string(bytes) + " bytes";
}

[[noreturn]] void too_large(const std::string& file, const std::string& size,
                            std::uint64_t max_bytes, const char* what) {
    throw input_file_error(file + ": " + size + ", more than the " + size_text(max_bytes) + " " +
                           what + " may have");
}

// Closes the descriptor on every way out.
struct fd_guard {
    int fd;
    ~fd_guard() { close(fd); }
};

} // namespace

std::string read_input_file(const std::string& file, std::uint64_t max_bytes, const char* what) {
    // stat first: a FIFO or a device is refused without opening it (opening can have effects).
    struct stat st {};
    if (stat(file.c_str(), &st) != 0)
        throw input_file_error(file + ": cannot open: " + std::strerror(errno));
    check_regular(file, st);
    // O_NONBLOCK: should the name be swapped for a FIFO after the stat, open does not wait for a
    // writer; fstat below then refuses it.
    const int fd = open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        throw input_file_error(file + ": cannot open: " + std::strerror(errno));
    const fd_guard guard{fd};
    if (fstat(fd, &st) != 0)
        throw input_file_error(file + ": cannot read: " + std::strerror(errno));
    check_regular(file, st);
    if (static_cast<std::uint64_t>(st.st_size) > max_bytes)
        too_large(file, std::to_string(st.st_size) + " bytes", max_bytes, what);
    std::string text;
    text.reserve(static_cast<size_t>(st.st_size));
    char buf[65536];
    while (true) {
        const ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            throw input_file_error(file + ": cannot read: " + std::strerror(errno));
        if (n == 0)
            return text;
        text.append(buf, static_cast<size_t>(n));
        if (text.size() > max_bytes) // the file grew while it was read
            too_large(file, "over " + size_text(max_bytes), max_bytes, what);
    }
}

} // namespace nicsim::io
