// SPDX-License-Identifier: MIT
//
// The JSON Schema of scenario files, taken from the loader's own code: while a recorder is
// active, every yaml_reader reports each key the loader asks for (its type, unit, enum values,
// whether it is required, nested mappings, lists and free-form maps). Loading a set of exemplar
// scenarios (every shipped one) under a recorder and merging what was asked gives
// docs/scenario.schema.json (`nicsim generate schema FILE...`), so the schema cannot drift from
// the loader: a key the loader reads is in it, with the type the loader decodes.
//
// What a recording cannot know: keys on a code path none of the exemplars takes (the schema test
// requires every key of the docs/scenarios.md table, so a missing exemplar shows), and the
// cross-key rules the loader checks after reading (those stay the loader's, as before).
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace nicsim::config {

class schema_recorder {
  public:
    // The recorder yaml_readers report to (one per thread; null: not recording).
    static schema_recorder* active();

    // Makes this recorder the active one for its lifetime.
    class scope {
      public:
        explicit scope(schema_recorder& r);
        ~scope();
        scope(const scope&) = delete;
        scope& operator=(const scope&) = delete;

      private:
        schema_recorder* m_prev;
    };
    // Stops recording for its lifetime (e.g. while the platform profile a scenario names is
    // loaded: that is another file format, not part of the scenario).
    class pause {
      public:
        pause();
        ~pause();
        pause(const pause&) = delete;
        pause& operator=(const pause&) = delete;

      private:
        schema_recorder* m_prev;
    };

    // --- what yaml_reader reports (path: the mapping's dotted path, "" at the root; a list item
    // is "name[i]") ---
    void mapping(const std::string& path); // a reader over this mapping was made
    void scalar(const std::string& path, const std::string& key, const std::string& expected,
                bool required, const std::vector<std::string>* enum_values = nullptr);
    void object(const std::string& path, const std::string& key, bool required);
    void list(const std::string& path, const std::string& key);
    void free_map(const std::string& path); // any names, scalar values

    // The schema of everything recorded so far (draft 2020-12).
    nlohmann::json to_schema(const std::string& title, const std::string& description) const;

  private:
    struct node {
        unsigned visits = 0; // readers made over it (as a mapping)
        unsigned required_asks = 0, optional_asks = 0;
        bool is_object = false, is_free_map = false, is_list = false;
        std::set<std::string> expected; // decode<T>::expected() texts
        std::set<std::string> enum_values;
        bool open_values = false;             // asked at least once without an enum
        std::map<std::string, node> children; // by key
        std::unique_ptr<node> items;          // list items ("name[i]")
    };
    node& at(const std::string& path);
    node& key_node(const std::string& path, const std::string& key, bool required);
    static nlohmann::json emit(const node& n);
    static nlohmann::json scalar_schema(const node& n);

    node m_root;
};

} // namespace nicsim::config
