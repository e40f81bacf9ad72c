// SPDX-License-Identifier: MIT
// bus/common/reg.h: access kinds per field, byte-lane writes, handlers, banking, names.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bus/common/reg.h"

using namespace nicsim::regs;

TEST(Reg, ResetAndPlainReadWrite) {
    reg<uint16_t> r({"CTRL", 0x10, 0, 0x1234});
    EXPECT_EQ(r.read(), 0x1234);
    EXPECT_EQ(r.width(), 16u);
    r.write(0xBEEF);
    EXPECT_EQ(r.read(), 0xBEEF);
    r.reset();
    EXPECT_EQ(r.get(), 0x1234);
}

TEST(Reg, FieldAccessKinds) {
    reg<uint8_t> r({"FLAGS",
                    0x1C,
                    0,
                    0x00,
                    access::none,
                    {{"RO", 0x80, access::ro},
                     {"RW", 0x40, access::rw},
                     {"W1C", 0x20, access::w1c},
                     {"CLR", 0x10, access::clr},
                     {"TRIG", 0x08, access::trig},
                     {"WO", 0x04, access::wo}}});
    r.set(0xB0); // RO, W1C, CLR set by the model
    auto res = r.write(0x00);
    EXPECT_EQ(res.ignored, 0x80); // tried to clear the read-only bit
    EXPECT_EQ(r.get(), 0xA0);     // CLR cleared by the 0, W1C kept, RO kept
    r.write(0xA0 | 0x10);         // 1 to W1C clears it; 1 to CLR cannot set it
    EXPECT_EQ(r.get(), 0x80);
    r.write(0x80 | 0x40 | 0x04 | 0x02); // RW and WO stored, the unimplemented bit is dropped
    EXPECT_EQ(r.get(), 0xC4);
    EXPECT_EQ(r.read(), 0xC0); // WO reads 0
    EXPECT_EQ(r.mask(access::rw), 0x40);
    EXPECT_EQ(r.mask(access::none), 0x03);
}

TEST(Reg, TriggerReachesHandlerAndReadsZero) {
    reg<uint8_t> r({"ECON2", 0x1E, all_banks, 0x80, access::rw, {{"PKTDEC", 0x40, access::trig}}});
    std::vector<std::pair<int, int>> calls;
    r.on_write = [&](uint8_t o, uint8_t n) { calls.emplace_back(o, n); };
    r.host_set_bits(0x40);
    ASSERT_EQ(calls.size(), 1u);
    EXPECT_EQ(calls[0].first, 0x80);
    EXPECT_EQ(calls[0].second, 0xC0);
    EXPECT_EQ(r.get(), 0x80);
    EXPECT_EQ(r.read(), 0x80);
    r.host_clear_bits(0x80);
    EXPECT_EQ(r.get(), 0x00);
}

TEST(Reg, ReadHandlerAndLanes) {
    uint16_t live = 0x5555;
    reg<uint16_t> r({"STAT", 0x02, 0, 0});
    r.on_read = [&](uint16_t stored) { return uint16_t(stored | live); };
    EXPECT_EQ(r.read(), 0x5555);
    r.write(0xAAAA, 0xFF00); // upper byte lane only
    EXPECT_EQ(r.get(), 0xAA00);
    EXPECT_EQ(r.read(), 0xFF55);
}

TEST(Reg, MapBanksAndAllBankRegisters) {
    reg_map<uint8_t> m;
    m.declare({"A0", 0x00, 0, 0x11});
    m.declare({"A1", 0x00, 1, 0x22});
    auto& common = m.declare({"COMMON", 0x1F, all_banks, 0x33});
    EXPECT_EQ(m.find(0, 0x00)->read(), 0x11);
    EXPECT_EQ(m.find(1, 0x00)->read(), 0x22);
    EXPECT_EQ(m.find(2, 0x00), nullptr);
    EXPECT_EQ(m.find(3, 0x1F), &common);
    EXPECT_STREQ(m.name_of(1, 0x00), "A1");
    EXPECT_STREQ(m.name_of(2, 0x05), "?");
    EXPECT_THROW(m.declare({"DUP", 0x00, 1, 0}), std::invalid_argument);
    m.find(0, 0)->write(0x99);
    m.reset_all();
    EXPECT_EQ(m.find(0, 0)->get(), 0x11);
    std::string order;
    m.for_each([&](const reg<uint8_t>& r) { order += std::string(r.name()) + " "; });
    EXPECT_EQ(order, "A0 A1 COMMON ");
}

TEST(Reg, DescribeNamesSetFields) {
    reg<uint8_t> r({"ECON1",
                    0x1F,
                    all_banks,
                    0,
                    access::rw,
                    {{"TXRTS", 0x08}, {"RXEN", 0x04}, {"BSEL", 0x03}}});
    EXPECT_EQ(r.describe(0x0D), "ECON1{TXRTS|RXEN|BSEL}");
    EXPECT_EQ(r.describe(0x00), "ECON1{}");
}

TEST(Reg, OverlappingFieldsRejected) {
    EXPECT_THROW(reg<uint8_t>({"BAD", 0, 0, 0, access::rw, {{"X", 0x0F}, {"Y", 0x08}}}),
                 std::invalid_argument);
}
