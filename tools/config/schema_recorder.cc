// SPDX-License-Identifier: MIT
#include "tools/config/schema_recorder.h"

#include <algorithm>

namespace nicsim::config {

namespace {

thread_local schema_recorder* g_active = nullptr;

const nlohmann::json any_scalar = {"string", "number", "boolean"};

// The JSON type of what decode<T>::expected() describes (yaml_reader.h's decoders).
nlohmann::json type_of(const std::string& expected) {
    if (expected == "a string")
        return {{"type", "string"}};
    if (expected == "a boolean (true or false)")
        return {{"type", "boolean"}};
    if (expected == "an integer")
        return {{"type", "integer"}};
    if (expected == "a non-negative integer")
        return {{"type", "integer"}, {"minimum", 0}};
    if (expected == "a number")
        return {{"type", "number"}};
    if (expected == "a scalar value")
        return {{"type", any_scalar}};
    // A quantity with its unit ("a duration (e.g. 20ns, 1.5us)"), or a plain number.
    return {{"type", {"string", "number"}}, {"description", expected}};
}

} // namespace

schema_recorder* schema_recorder::active() {
    return g_active;
}

schema_recorder::scope::scope(schema_recorder& r) : m_prev(g_active) {
    g_active = &r;
}
schema_recorder::scope::~scope() {
    g_active = m_prev;
}
schema_recorder::pause::pause() : m_prev(g_active) {
    g_active = nullptr;
}
schema_recorder::pause::~pause() {
    g_active = m_prev;
}

schema_recorder::node& schema_recorder::at(const std::string& path) {
    node* n = &m_root;
    std::size_t i = 0;
    while (i < path.size()) {
        std::size_t end = path.find('.', i);
        if (end == std::string::npos)
            end = path.size();
        std::string seg = path.substr(i, end - i);
        // "faults[0]": the key, then one level of list items per index.
        const std::size_t bracket = seg.find('[');
        n->is_object = true;
        n = &n->children[seg.substr(0, bracket)];
        for (std::size_t b = bracket; b != std::string::npos; b = seg.find('[', b + 1)) {
            n->is_list = true;
            if (!n->items)
                n->items = std::make_unique<node>();
            n = n->items.get();
        }
        i = end + 1;
    }
    return *n;
}

void schema_recorder::mapping(const std::string& path) {
    node& n = at(path);
    n.is_object = true;
    ++n.visits;
}

schema_recorder::node& schema_recorder::key_node(const std::string& path, const std::string& key,
                                                 bool required) {
    node& parent = at(path);
    parent.is_object = true;
    node& n = parent.children[key];
    ++(required ? n.required_asks : n.optional_asks);
    return n;
}

void schema_recorder::scalar(const std::string& path, const std::string& key,
                             const std::string& expected, bool required,
                             const std::vector<std::string>* enum_values) {
    node& n = key_node(path, key, required);
    n.expected.insert(expected);
    if (enum_values)
        n.enum_values.insert(enum_values->begin(), enum_values->end());
    else
        n.open_values = true;
}

void schema_recorder::object(const std::string& path, const std::string& key, bool required) {
    key_node(path, key, required).is_object = true;
}

void schema_recorder::list(const std::string& path, const std::string& key) {
    node& n = key_node(path, key, false);
    n.is_list = true;
    n.expected.insert("a scalar value");
    n.open_values = true;
}

void schema_recorder::free_map(const std::string& path) {
    at(path).is_free_map = true;
}

nlohmann::json schema_recorder::scalar_schema(const node& n) {
    nlohmann::json types = nlohmann::json::array();
    std::string description;
    for (const auto& e : n.expected) {
        const auto t = type_of(e);
        for (const auto& x : t["type"].is_array() ? t["type"] : nlohmann::json::array({t["type"]}))
            if (std::find(types.begin(), types.end(), x) == types.end())
                types.push_back(x);
        if (t.contains("description"))
            description += (description.empty() ? "" : "; ") + t["description"].get<std::string>();
    }
    nlohmann::json s;
    if (!n.enum_values.empty() && !n.open_values) {
        s["enum"] = n.enum_values; // names the loader maps (enumerated, one_of)
        return s;
    }
    s["type"] = types.size() == 1 ? types[0] : types;
    if (n.expected.size() == 1) {
        const auto t = type_of(*n.expected.begin());
        if (t.contains("minimum"))
            s["minimum"] = t["minimum"];
    }
    if (!description.empty())
        s["description"] = description;
    return s;
}

nlohmann::json schema_recorder::emit(const node& n) {
    std::vector<nlohmann::json> forms;
    if (!n.expected.empty() && !n.is_list)
        forms.push_back(scalar_schema(n));
    if (n.is_list) {
        if (n.items) {
            forms.push_back({{"type", "array"}, {"items", emit(*n.items)}});
        } else {
            // scalar_list: one scalar, or a list of them.
            forms.push_back({{"type", any_scalar}});
            forms.push_back({{"type", "array"}, {"items", {{"type", any_scalar}}}});
        }
    }
    if (n.is_object || n.is_free_map) {
        nlohmann::json o = {{"type", "object"}};
        nlohmann::json props = nlohmann::json::object();
        nlohmann::json required = nlohmann::json::array();
        for (const auto& [key, child] : n.children) {
            props[key] = emit(child);
            // Required when every reading of this mapping asked for it as required (a free map's
            // entries are read because they are there, never required).
            if (!n.is_free_map && n.visits > 0 && child.optional_asks == 0 &&
                child.required_asks >= n.visits)
                required.push_back(key);
        }
        if (!props.empty())
            o["properties"] = props;
        if (!required.empty())
            o["required"] = required;
        o["additionalProperties"] =
            n.is_free_map ? nlohmann::json{{"type", any_scalar}} : nlohmann::json(false);
        forms.push_back(o);
    }
    if (forms.empty())
        return nlohmann::json::object(); // asked about but never read: anything
    if (forms.size() == 1)
        return forms[0];
    return {{"anyOf", forms}};
}

nlohmann::json schema_recorder::to_schema(const std::string& title,
                                          const std::string& description) const {
    nlohmann::json s = emit(m_root);
    nlohmann::json out = {{"$schema", "https://json-schema.org/draft/2020-12/schema"},
                          {"title", title},
                          {"description", description}};
    for (auto it = s.begin(); it != s.end(); ++it)
        out[it.key()] = it.value();
    return out;
}

} // namespace nicsim::config
