// SPDX-License-Identifier: MIT
// The plug-in cache key's SHA-256 (driver_source::sha256_hex): known answers, so a change of the
// library under it cannot change a key (a changed key would rebuild every cached plug-in and
// change run.driver_source_sha256 in reports). Expected values from Python's hashlib.
#include <string>

#include <gtest/gtest.h>

#include "tools/driver_source.h"

using nicsim::driver_source::sha256_hex;

namespace {

TEST(Sha256, FipsExamples) {
    // FIPS 180-4 / NIST CSRC examples: empty, one block, two blocks, a million 'a'.
    EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(sha256_hex("abc"),
              "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    EXPECT_EQ(sha256_hex(std::string(1000000, 'a')),
              "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, PaddingBoundaries) {
    // Lengths where the length field just fits into, or spills out of, the last block.
    std::string bytes;
    for (int i = 0; i < 256; ++i)
        bytes += static_cast<char>(i);
    const struct {
        std::size_t n;
        const char* hex;
    } cases[] = {
        {55, "463eb28e72f82e0a96c0a4cc53690c571281131f672aa229e0d45ae59b598b59"},
        {56, "da2ae4d6b36748f2a318f23e7ab1dfdf45acdc9d049bd80e59de82a60895f562"},
        {63, "29af2686fd53374a36b0846694cc342177e428d1647515f078784d69cdb9e488"},
        {64, "fdeab9acf3710362bd2658cdc9a29e8f9c757fcf9811603a8c447cd1d9151108"},
        {119, "da18797ed7c3a777f0847f429724a2d8cd5138e6ed2895c3fa1a6d39d18f7ec6"},
        {120, "f52b23db1fbb6ded89ef42a23ce0c8922c45f25c50b568a93bf1c075420bbb7c"},
    };
    for (const auto& c : cases)
        EXPECT_EQ(sha256_hex(bytes.substr(0, c.n)), c.hex) << c.n << " bytes";
}

TEST(Sha256, EmbeddedNul) {
    // The key material is file contents: a NUL byte is data, not an end.
    EXPECT_EQ(sha256_hex(std::string("x\0y", 3)),
              "ce3890a816f5237a17aa7e1436113bbac398dfe216cf965537cd035bdbad900a");
}

} // namespace
