// SPDX-License-Identifier: MIT
//
// The error of a run that cannot start (model/driver failure, unsupported combination, payload
// mismatch): thrown by the board, the device bindings, the traces and the composition while the
// run is built, caught by the CLI, which prints the message and exits with code 2. In its own
// header so the parts that throw it do not depend on the runner above them.
#pragma once

#include <stdexcept>

namespace nicsim {

struct run_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

} // namespace nicsim
