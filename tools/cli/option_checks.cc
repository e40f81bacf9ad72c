// SPDX-License-Identifier: MIT
#include "tools/cli/option_checks.h"

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <string>

namespace nicsim::cli {

CLI::Validator process_count() {
    return CLI::Validator(
        [](std::string& s) -> std::string {
            errno = 0;
            char* end = nullptr;
            const unsigned long long v = std::strtoull(s.c_str(), &end, 10);
            if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos ||
                *end != '\0' || errno == ERANGE || v < 1 || v > UINT_MAX)
                return "expected a whole number of processes, 1 or more, got '" + s + "'";
            return {};
        },
        "POSITIVE"); // the metavar CLI::PositiveNumber gave (man page, completion)
}

CLI::Validator positive_number() {
    return CLI::Validator(
        [](std::string& s) -> std::string {
            char* end = nullptr;
            const double v = std::strtod(s.c_str(), &end);
            if (s.empty() || *end != '\0' || !std::isfinite(v) || !(v > 0))
                return "expected a number greater than 0, got '" + s + "'";
            return {};
        },
        "POSITIVE");
}

} // namespace nicsim::cli
