// SPDX-License-Identifier: MIT
#include "tools/cli/schema_gen.h"

#include <ostream>

#include "tools/cli/cli.h"
#include "tools/config/config_loader.h"
#include "tools/config/schema_recorder.h"
#include "sim/runner.h"

namespace nicsim::cli {

int cmd_generate_schema(const std::vector<std::string>& files, std::ostream& out,
                        std::ostream& err) {
    if (files.empty()) {
        err << "nicsim generate schema: name the exemplar scenarios (e.g. configs/*.yaml)\n";
        return exit_config_error;
    }
    config::schema_recorder rec;
    {
        config::schema_recorder::scope recording(rec);
        config::load_options o;
        add_known_drivers(o);
        for (const auto& f : files) {
            try {
                config::load_scenario(f, o);
            } catch (const config::config_error& e) {
                err << "nicsim generate schema: " << f << ": " << e.what() << "\n";
                return exit_config_error;
            }
        }
    }
    out << rec.to_schema("nicsim scenario",
                         "A nicsim scenario file (docs/scenarios.md, 'Scenario keys'), generated "
                         "by `nicsim generate schema` from what the loader "
                         "(tools/config/config_loader.cc) asks for while it loads every "
                         "shipped scenario. The loader stays the authority on cross-key rules and "
                         "on which keys each traffic kind takes.")
               .dump(2)
        << "\n";
    return exit_ok;
}

} // namespace nicsim::cli
