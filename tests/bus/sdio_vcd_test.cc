// SPDX-License-Identifier: MIT
// SDIO VCD tracer: pin levels reconstructed from the host's schedule, read back from the file and
// compared with the bits the protocol puts on each line, cycle by cycle.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "bus/irq/irq_line.h"
#include "bus/sdio/sdio_host.h"
#include "bus/sdio/sdio_vcd_tracer.h"

using namespace nicsim::sdio;
using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_US;

namespace {

// A trace file in the test's scratch directory, removed when the test ends (pass or fail).
struct scratch_file {
    explicit scratch_file(const std::string& name)
        : path(::testing::TempDir() + "nicsim_" + std::to_string(::getpid()) + "_" + name) {}
    ~scratch_file() { std::remove(path.c_str()); }
    const std::string path;
};

// signal name -> (time ps, level) changes, in file order; checks timestamps increase.
std::map<std::string, std::vector<std::pair<uint64_t, char>>> read_vcd(const std::string& path) {
    std::ifstream in(path);
    std::map<std::string, std::string> names;
    std::map<std::string, std::vector<std::pair<uint64_t, char>>> out;
    std::string line;
    uint64_t t = 0;
    bool first_stamp = true;
    while (std::getline(in, line)) {
        if (line.rfind("$var", 0) == 0) {
            std::istringstream is(line);
            std::string var, wire, width, id, name;
            is >> var >> wire >> width >> id >> name;
            names[id] = name;
        } else if (!line.empty() && line[0] == '#') {
            const uint64_t nt = std::stoull(line.substr(1));
            EXPECT_TRUE(first_stamp || nt > t) << "timestamps not increasing at " << line;
            first_stamp = false;
            t = nt;
        } else if (!line.empty() && (line[0] == '0' || line[0] == '1')) {
            out[names.at(line.substr(1))].push_back({t, line[0]});
        }
    }
    return out;
}

// Level of `sig` at time t (after all changes at times <= t).
char level_at(const std::vector<std::pair<uint64_t, char>>& ch, uint64_t t) {
    char v = '?';
    for (const auto& [ct, cv] : ch) {
        if (ct > t)
            break;
        v = cv;
    }
    return v;
}

class reg_card : public sc_core::sc_module, public sdio_card_if {
  public:
    sdio_target_socket sdio_in;
    explicit reg_card(const sc_core::sc_module_name& n)
        : sc_core::sc_module(n), sdio_in("sdio_in", *this) {}
    void sdio_transport(sdio_payload& p, sc_time&) override {
        p.r5_flags = r5_state_cmd;
        if (p.is_cmd52() && !p.write)
            *p.data = 0xB7;
    }
};

struct bench : sc_core::sc_module {
    sdio_host host;
    reg_card card;
    nicsim::irq_line irq;
    SC_HAS_PROCESS(bench);
    explicit bench(const sc_core::sc_module_name& n = "bench")
        : sc_core::sc_module(n), host("host"), card("card"), irq("irq") {
        host.sdio_out.bind(card.sdio_in);
    }
};

constexpr uint64_t ns = 1000; // ps
uint64_t mid(uint64_t c) {
    return c * 40 * ns + 20 * ns;
} // middle of cycle c at 25 MHz

} // namespace

// CMD52 read of fn 1 addr 0x10 at 25 MHz, 4-bit: CMD carries the 48 command bits in cycles
// 0..47 (0 1 110100 arg=0x10002000 CRC7 1), idles high for N_CR (48, 49), carries the R5
// response in 50..97 (0 0 110100, 16 zero stuff bits, flags 0x10, data 0xB7, CRC7, 1); SDCLK
// rises 98 times in the middle of each cycle; the DAT lines stay high.
TEST(SdioVcd, Cmd52CommandAndResponseBits) {
    const scratch_file file("sdio_cmd52.vcd");
    const std::string& path = file.path;
    {
        bench b;
        sdio_vcd_tracer tr(path);
        b.host.add_observer(tr);
        struct runner : sc_core::sc_module {
            SC_HAS_PROCESS(runner);
            bench& b;
            runner(const sc_core::sc_module_name& n, bench& bb) : sc_core::sc_module(n), b(bb) {
                SC_THREAD(run);
            }
            void run() {
                b.host.set_ios(25'000'000, 4);
                uint8_t v = 0;
                b.host.cmd52(1, false, 0x10, v);
            }
        } r("r", b);
        sc_core::sc_start();
        tr.close();
    }
    auto vcd = read_vcd(path);
    const uint64_t cmd_first40 = (uint64_t(0x40 | 52) << 32) | 0x10002000u;
    const uint64_t cmd_tok = (cmd_first40 << 8) | (uint64_t(crc7_bits(cmd_first40, 40)) << 1) | 1;
    const uint64_t resp_first40 =
        (uint64_t(52) << 32) | (uint64_t(r5_state_cmd) << 16) | (0xB7u << 8);
    const uint64_t resp_tok =
        (resp_first40 << 8) | (uint64_t(crc7_bits(resp_first40, 40)) << 1) | 1;
    for (uint64_t c = 0; c < 48; ++c)
        EXPECT_EQ(level_at(vcd["cmd"], mid(c)), ((cmd_tok >> (47 - c)) & 1) ? '1' : '0') << c;
    EXPECT_EQ(level_at(vcd["cmd"], mid(48)), '1');
    EXPECT_EQ(level_at(vcd["cmd"], mid(49)), '1');
    for (uint64_t c = 0; c < 48; ++c)
        EXPECT_EQ(level_at(vcd["cmd"], mid(50 + c)), ((resp_tok >> (47 - c)) & 1) ? '1' : '0') << c;
    EXPECT_EQ(level_at(vcd["cmd"], mid(120)), '1');
    size_t rises = 0;
    for (const auto& [t, v] : vcd["clk"])
        if (v == '1') {
            EXPECT_EQ(t, mid(rises));
            ++rises;
        }
    EXPECT_EQ(rises, 98u);
    for (const char* d : {"dat0", "dat1", "dat2", "dat3"})
        EXPECT_EQ(vcd[d].size(), 1u) << d; // only the $dumpvars idle level
}

// CMD53 byte write of {0xA5, 0x3C} in 4-bit mode: block [100,122): start bit 0 on DAT0..3 at
// cycle 100, nibbles A,5,3,C at 101..104 (bit 3 on DAT3), per-line CRC16 at 105..120, end bit
// at 121; CRC status token 0 0 1 0 1 on DAT0 at 124..128. The card interrupt raised at 1 us (in
// the middle of the command, whose trace is written when it completes) lands in order.
TEST(SdioVcd, Cmd53WriteDataCrcAndToken) {
    const scratch_file file("sdio_cmd53.vcd");
    const std::string& path = file.path;
    uint8_t data[2] = {0xA5, 0x3C};
    {
        bench b;
        sdio_vcd_tracer tr(path);
        b.host.add_observer(tr);
        b.irq.add_observer(tr);
        struct runner : sc_core::sc_module {
            SC_HAS_PROCESS(runner);
            bench& b;
            uint8_t* d;
            runner(const sc_core::sc_module_name& n, bench& bb, uint8_t* dd)
                : sc_core::sc_module(n), b(bb), d(dd) {
                SC_THREAD(run);
                SC_THREAD(irq);
            }
            void run() {
                b.host.set_ios(25'000'000, 4);
                b.host.cmd53(1, true, 0x100, true, false, 2, 0, d);
            }
            void irq() {
                sc_core::wait(sc_time(1, SC_US));
                b.irq.set_level(true);
            }
        } r("r", b, data);
        sc_core::sc_start();
        tr.close();
    }
    auto vcd = read_vcd(path);
    const char* lines[4] = {"dat0", "dat1", "dat2", "dat3"};
    const uint8_t nibbles[4] = {0xA, 0x5, 0x3, 0xC};
    uint16_t crc[4] = {};
    for (unsigned l = 0; l < 4; ++l) {
        EXPECT_EQ(level_at(vcd[lines[l]], mid(99)), '1');
        EXPECT_EQ(level_at(vcd[lines[l]], mid(100)), '0'); // start bit
        for (unsigned n = 0; n < 4; ++n) {
            const bool bit = (nibbles[n] >> l) & 1;
            crc[l] = crc16_step(crc[l], bit);
            EXPECT_EQ(level_at(vcd[lines[l]], mid(101 + n)), bit ? '1' : '0') << l << ' ' << n;
        }
        for (unsigned k = 0; k < 16; ++k)
            EXPECT_EQ(level_at(vcd[lines[l]], mid(105 + k)), ((crc[l] >> (15 - k)) & 1) ? '1' : '0')
                << l << ' ' << k;
        EXPECT_EQ(level_at(vcd[lines[l]], mid(121)), '1'); // end bit
    }
    const char token[5] = {'0', '0', '1', '0', '1'};
    for (unsigned k = 0; k < 5; ++k)
        EXPECT_EQ(level_at(vcd["dat0"], mid(124 + k)), token[k]) << k;
    EXPECT_EQ(level_at(vcd["dat1"], mid(125)), '1');
    ASSERT_EQ(vcd["card_irq"].size(), 2u);
    EXPECT_EQ(vcd["card_irq"][1], (std::pair<uint64_t, char>{1'000'000, '1'}));
    size_t rises = 0;
    for (const auto& [t, v] : vcd["clk"])
        rises += v == '1';
    EXPECT_EQ(rises, 129u);
}
