// SPDX-License-Identifier: MIT
// bus/sdio/sdio_card_regs.h: the standard function-0 registers without any chip behind them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bus/sdio/sdio_card_regs.h"

using namespace nicsim::sdio;
using namespace nicsim::sdio::card_reg;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {
card_info info() {
    card_info i;
    i.vendor_id = 0x1234;
    i.device_id = 0x5678;
    i.max_block_size = 512;
    i.caps = CAP_SMB;
    i.f1_interface_code = 0x07;
    i.f1_csa = true;
    i.io_ready_delay = sc_time(100, SC_NS);
    return i;
}
uint8_t rd(card_regs& c, uint32_t a, sc_time t = sc_time(0, SC_NS)) {
    uint8_t v = 0xee;
    EXPECT_TRUE(c.read(a, v, t).ok()) << a;
    return v;
}
} // namespace

TEST(SdioCardRegs, IdentityAndCis) {
    card_regs c(info());
    EXPECT_EQ(rd(c, CCCR_REV), 0x32);
    EXPECT_EQ(rd(c, CAPS), CAP_SMB);
    EXPECT_EQ(rd(c, FBR1), 0x07 | CSA_SUPPORT);
    EXPECT_EQ(rd(c, CIS_PTR + 1), 0x10); // common CIS at 0x1000
    EXPECT_EQ(rd(c, CIS_COMMON), 0x20);  // CISTPL_MANFID
    EXPECT_EQ(rd(c, CIS_COMMON + 2), 0x34);
    EXPECT_EQ(rd(c, CIS_COMMON + 5), 0x56);
}

TEST(SdioCardRegs, EnableReadyAndAbort) {
    card_regs c(info());
    int enables = 0;
    std::vector<std::string> stops;
    c.on_enables = [&] { ++enables; };
    c.on_f1_stop = [&](sc_time, const char* why) { stops.push_back(why); };
    c.f1_interrupt = [] { return true; };
    EXPECT_TRUE(c.write(IOEx, 0xff, sc_time(0, SC_NS)).ok());
    EXPECT_EQ(c.io_enable(), IO_F1); // only function 1 exists
    EXPECT_EQ(rd(c, IORx, sc_time(50, SC_NS)), 0);
    EXPECT_EQ(rd(c, IORx, sc_time(100, SC_NS)), IO_F1);
    EXPECT_EQ(rd(c, INTx), 0); // interrupt not enabled
    EXPECT_TRUE(c.write(IENx, IEN_MASTER | IEN_F1, sc_time(0, SC_NS)).ok());
    EXPECT_TRUE(c.f1_irq_enabled());
    EXPECT_EQ(rd(c, INTx), IO_F1);
    EXPECT_EQ(enables, 2);
    EXPECT_TRUE(c.write(ABORT, 1, sc_time(0, SC_NS)).ok());
    EXPECT_EQ(rd(c, ABORT), 0); // commands read 0
    EXPECT_TRUE(c.write(F1_BLKSIZE + 1, 2, sc_time(0, SC_NS)).ok());
    EXPECT_EQ(c.block_size(1), 512);
    EXPECT_TRUE(c.write(ABORT, ABORT_RES, sc_time(0, SC_NS)).ok());
    EXPECT_EQ(c.io_enable(), 0);
    EXPECT_EQ(c.block_size(1), 0);
    EXPECT_EQ(stops, (std::vector<std::string>{"CCCR ABORT of function 1", "CCCR ABORT.RES"}));
}

TEST(SdioCardRegs, CsaPointerAndEnable) {
    card_regs c(info());
    EXPECT_FALSE(c.csa_enabled());
    EXPECT_TRUE(c.write(FBR1, 0xff, sc_time(0, SC_NS)).ok());
    EXPECT_TRUE(c.csa_enabled());
    EXPECT_EQ(rd(c, FBR1), 0x07 | CSA_SUPPORT | CSA_ENABLE); // interface code stays
    for (uint32_t i = 0; i < 3; ++i)
        EXPECT_TRUE(c.write(CSA_PTR + i, uint8_t(0x10 + i), sc_time(0, SC_NS)).ok());
    EXPECT_EQ(c.csa_pointer(), 0x121110u);
    c.set_csa_pointer(0xabcdef);
    EXPECT_EQ(rd(c, CSA_PTR + 2), 0xab);
}

TEST(SdioCardRegs, ReadOnlyReservedAndCis) {
    card_regs c(info());
    std::vector<std::string> notes;
    c.on_note = [&](sc_time, card_note, const std::string& s) { notes.push_back(s); };
    // Read-only: ignored and noted.
    EXPECT_TRUE(c.write(CCCR_REV, 0, sc_time(0, SC_NS)).ok());
    EXPECT_EQ(rd(c, CCCR_REV), 0x32);
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_NE(notes[0].find("read-only F0 0x0 (CCCR_REV)"), std::string::npos) << notes[0];
    // Reserved bus width: taken and noted as a protocol matter.
    EXPECT_TRUE(c.write(BUS_IF, 0x01, sc_time(0, SC_NS)).ok());
    EXPECT_EQ(notes.size(), 2u);
    // FBR1 RFU bytes read 0, writes are errors; so are unknown addresses and the CIS.
    EXPECT_EQ(rd(c, 0x103), 0);
    EXPECT_EQ(c.write(0x103, 1, sc_time(0, SC_NS)).rsp, sdio_response::out_of_range);
    uint8_t v = 0;
    EXPECT_EQ(c.read(0x20, v, sc_time(0, SC_NS)).rsp, sdio_response::out_of_range);
    const card_result r = c.write(CIS_COMMON, 0, sc_time(0, SC_NS));
    EXPECT_EQ(r.rsp, sdio_response::out_of_range);
    EXPECT_NE(r.text.find("CIS is read-only"), std::string::npos);
}

TEST(SdioCardRegs, NamesForTraces) {
    EXPECT_STREQ(card_regs::name_of(IOEx), "IOEx");
    EXPECT_STREQ(card_regs::name_of(F0_BLKSIZE + 1), "F0_BLKSIZE_HI");
    EXPECT_STREQ(card_regs::name_of(CSA_PTR), "csa_ptr0");
    EXPECT_EQ(card_regs::name_of(FBR1), nullptr); // traces show it by address
    EXPECT_EQ(card_regs::name_of(0x20), nullptr);
}
