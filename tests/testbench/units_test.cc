// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include "core/config/units.h"

using namespace nicsim::config;

TEST(Units, DurationSuffixesAreExactPicoseconds) {
    EXPECT_EQ(parse_duration("20ns").ps, 20'000);
    EXPECT_EQ(parse_duration("1.5us").ps, 1'500'000);
    EXPECT_EQ(parse_duration("1.5\xC2\xB5s").ps, 1'500'000); // µs
    EXPECT_EQ(parse_duration("2 ms").ps, 2'000'000'000);
    EXPECT_EQ(parse_duration("120s").ps, 120'000'000'000'000);
    EXPECT_EQ(parse_duration("7ps").ps, 7);
    EXPECT_EQ(parse_duration("1e-6s").ps, 1'000'000);
    EXPECT_EQ(parse_duration("0").ps, 0); // a bare zero needs no unit
}

TEST(Units, DurationRejectsMissingUnitNegativeAndUnknownUnits) {
    EXPECT_THROW(parse_duration("5"), value_error); // unit required
    EXPECT_THROW(parse_duration("5 sec"), value_error);
    EXPECT_THROW(parse_duration("5NS"), value_error); // case-sensitive
    EXPECT_THROW(parse_duration("fast"), value_error);
    EXPECT_THROW(parse_duration(""), value_error);
    EXPECT_THROW(parse_duration("0.1ps"), value_error); // below resolution
    try {
        parse_duration("-1us");
        FAIL() << "negative duration accepted";
    } catch (const value_error& e) {
        EXPECT_STREQ(e.what(), "must not be negative");
    }
}

TEST(Units, FrequencyAcceptsSiSuffixesAndRejectsWrongCase) {
    EXPECT_DOUBLE_EQ(parse_frequency("48MHz").hz, 48e6);
    EXPECT_DOUBLE_EQ(parse_frequency("48 MHz").hz, 48e6);
    EXPECT_DOUBLE_EQ(parse_frequency("41.666667MHz").hz, 41.666667e6);
    EXPECT_DOUBLE_EQ(parse_frequency("32.768kHz").hz, 32768);
    EXPECT_DOUBLE_EQ(parse_frequency("1000").hz, 1000); // bare number = Hz
    EXPECT_THROW(parse_frequency("48 Mhz"), value_error);
    EXPECT_THROW(parse_frequency("48mhz"), value_error);
    EXPECT_THROW(parse_frequency("fast"), value_error);
    EXPECT_THROW(parse_frequency("0"), value_error);
    EXPECT_THROW(parse_frequency("-48MHz"), value_error);
    try {
        parse_frequency("48 Mhz");
    } catch (const value_error& e) {
        EXPECT_NE(std::string(e.what()).find("unknown unit 'Mhz'"), std::string::npos) << e.what();
    }
}

TEST(Units, ByteSizesUseDecimalAndBinaryPrefixes) {
    EXPECT_EQ(parse_byte_size("64KiB").bytes, 65536u);
    EXPECT_EQ(parse_byte_size("1.5KiB").bytes, 1536u);
    EXPECT_EQ(parse_byte_size("16MiB").bytes, 16777216u);
    EXPECT_EQ(parse_byte_size("64kB").bytes, 64000u);
    EXPECT_EQ(parse_byte_size("1460").bytes, 1460u);
    EXPECT_EQ(parse_byte_size("96B").bytes, 96u);
    EXPECT_THROW(parse_byte_size("1.5B"), value_error); // fractional byte
    EXPECT_THROW(parse_byte_size("-1"), value_error);
    EXPECT_THROW(parse_byte_size("64kiB"), value_error);
}

TEST(Units, RatesCurrentsVoltages) {
    EXPECT_DOUBLE_EQ(parse_bit_rate("72.2Mbps").bps, 72.2e6);
    EXPECT_DOUBLE_EQ(parse_bit_rate("15960kbit/s").bps, 15.96e6);
    EXPECT_DOUBLE_EQ(parse_bit_rate("0").bps, 0);
    EXPECT_THROW(parse_bit_rate("72.2MBps"), value_error);
    EXPECT_DOUBLE_EQ(parse_current("60.5mA").amperes, 0.0605);
    EXPECT_DOUBLE_EQ(parse_current("1.25uA").amperes, 1.25e-6);
    EXPECT_DOUBLE_EQ(parse_voltage("3.3V").volts, 3.3);
    EXPECT_THROW(parse_voltage("0V"), value_error);
}

TEST(Units, CanonicalTextRoundTrips) {
    EXPECT_EQ(to_string(parse_duration("1.5us")), "1.5us");
    EXPECT_EQ(to_string(parse_duration("120s")), "120s");
    EXPECT_EQ(to_string(parse_duration("20ns")), "20ns");
    EXPECT_EQ(to_string(parse_duration("1.000001ms")), "1.000001ms");
    EXPECT_EQ(to_string(parse_frequency("48MHz")), "48MHz");
    EXPECT_EQ(to_string(parse_byte_size("64KiB")), "64KiB");
    EXPECT_EQ(to_string(parse_byte_size("1460")), "1460B");
    for (const char* s : {"3us", "250ns", "1.25s", "999ps"})
        EXPECT_EQ(parse_duration(to_string(parse_duration(s))).ps, parse_duration(s).ps) << s;
}
