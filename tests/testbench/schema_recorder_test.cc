// SPDX-License-Identifier: MIT
//
// The schema recorder (tools/config/schema_recorder.h): what yaml_reader reports while the
// loader reads, merged over several documents into a JSON Schema.
#include <memory>

#include <gtest/gtest.h>

#include "tools/config/schema_recorder.h"
#include "tools/config/yaml_reader.h"

using namespace nicsim::config;

namespace {

// A tiny "loader": kind decides which keys are read, as the scenario loader's traffic kinds do.
void read(schema_recorder& rec, const std::string& text) {
    schema_recorder::scope on(rec);
    auto src = std::make_shared<yaml_source>();
    src->file = "t.yaml";
    yaml_reader r(YAML::Load(text), "", "doc", src);
    r.required<duration>("duration");
    const std::string kind = r.one_of("kind", {"a", "b"});
    if (kind == "a")
        r.required<std::uint64_t>("count");
    r.optional<bool>("quiet", false);
    if (auto net = r.optional_child("net"))
        net->scalar_entries();
    r.child_or_empty("sub").optional<frequency>("clock", frequency{});
}

} // namespace

TEST(SchemaRecorder, MergesWhatTheLoaderAskedOverDocuments) {
    schema_recorder rec;
    read(rec, "{duration: 1s, kind: a, count: 3, net: {x: 1}}");
    read(rec, "{duration: 2s, kind: b}");
    const auto s = rec.to_schema("t", "d");
    EXPECT_EQ(s["$schema"], "https://json-schema.org/draft/2020-12/schema");
    EXPECT_EQ(s["additionalProperties"], false);
    // Required: asked as required by every reading; count only for kind a.
    EXPECT_EQ(s["required"], nlohmann::json({"duration", "kind"}));
    const auto& p = s["properties"];
    EXPECT_EQ(p["kind"]["enum"], nlohmann::json({"a", "b"}));
    EXPECT_EQ(p["count"]["type"], "integer");
    EXPECT_EQ(p["count"]["minimum"], 0);
    EXPECT_EQ(p["quiet"]["type"], "boolean");
    EXPECT_EQ(p["duration"]["type"], nlohmann::json({"string", "number"}));
    // A mapping read entry by entry takes any names; a nested one only what was asked.
    EXPECT_EQ(p["net"]["additionalProperties"]["type"],
              nlohmann::json({"string", "number", "boolean"}));
    EXPECT_EQ(p["sub"]["additionalProperties"], false);
    EXPECT_TRUE(p["sub"]["properties"].contains("clock"));
}

TEST(SchemaRecorder, RecordsNothingWhenPausedOrInactive) {
    schema_recorder rec;
    {
        schema_recorder::scope on(rec);
        schema_recorder::pause off;
        EXPECT_EQ(schema_recorder::active(), nullptr);
        auto src = std::make_shared<yaml_source>();
        yaml_reader r(YAML::Load("{a: 1}"), "", "doc", src);
        r.required<std::int64_t>("a");
    }
    EXPECT_EQ(schema_recorder::active(), nullptr);
    const auto s = rec.to_schema("t", "d");
    EXPECT_FALSE(s.contains("properties"));
}
