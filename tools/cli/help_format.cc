// SPDX-License-Identifier: MIT
#include "tools/cli/help_format.h"

#include <algorithm>
#include <sstream>
#include <string>

#include <CLI/CLI.hpp>

#include "tools/report/text_layout.h"

namespace nicsim::cli {
namespace {

class wrapping_formatter : public CLI::Formatter {
  public:
    explicit wrapping_formatter(std::size_t columns)
        : m_columns(std::min(columns, help_max_columns)) {
        column_width(26);
    }

    std::string make_option(const CLI::Option* opt, bool is_positional) const override {
        return entry(make_option_name(opt, is_positional) + make_option_opts(opt),
                     make_option_desc(opt));
    }

    std::string make_subcommand(const CLI::App* sub) const override {
        return entry(sub->get_display_name(true), sub->get_description());
    }

    std::string make_description(const CLI::App* app) const override {
        const std::string d = app->get_description();
        if (d.empty())
            return {};
        std::string out;
        for (const auto& l : report::wrap(d, m_columns))
            out += l + "\n";
        return out;
    }

  private:
    // "  NAME   description", the description wrapped inside its column; a name too wide for
    // the column puts the description on the next line.
    std::string entry(const std::string& name, const std::string& desc) const {
        const std::size_t col = get_column_width();
        std::string out = "  " + name;
        if (desc.empty())
            return out + "\n";
        const auto lines = report::wrap(desc, m_columns - col);
        if (out.size() >= col)
            out += "\n" + std::string(col, ' ');
        else
            out += std::string(col - out.size(), ' ');
        for (std::size_t i = 0; i < lines.size(); ++i)
            out += (i ? std::string(col, ' ') : std::string()) + lines[i] + "\n";
        return out;
    }

    std::size_t m_columns;
};

} // namespace

std::shared_ptr<CLI::Formatter> wrapping_help_formatter(std::size_t columns) {
    return std::make_shared<wrapping_formatter>(columns);
}

} // namespace nicsim::cli
