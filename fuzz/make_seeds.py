#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes the seed corpora of the fuzz targets (fuzz/corpus/<target>/seed-*): a few inputs each
# that reach past the first checks of a decoder (valid commands with their CRCs, a well-formed
# frame, the shipped scenarios). The files are in the repository; rerun this after changing a
# target's input format. Regression inputs (found by fuzzing) live next to them as regress-*.
import os
import struct
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
out = os.path.join(here, "corpus")


def put(target, name, data):
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "seed-" + name), "wb") as f:
        f.write(bytes(data))


def crc7(data):  # crc7_be as Linux lib/crc7.c, left-justified (the driver sends crc | 1)
    crc = 0x7F << 1
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = ((crc << 1) ^ 0x12) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
    return crc


def spi_frame(step, *xfers):
    """header byte (transfers - 1, time step) + per transfer u16 length + MOSI bytes."""
    b = [((step & 63) << 2) | (len(xfers) - 1)]
    for x, cs_change in xfers:
        b += list(struct.pack("<H", len(x) | (0x8000 if cs_change else 0))) + list(x)
    return b


# ---- WILC1000 SPI ----------------------------------------------------------------------------
def wilc_cmd(cmd, crc=True):
    return cmd + ([crc7(cmd) | 1] if crc else [])


internal_read_24 = wilc_cmd([0xC4, 0x00, 0x24, 0x00])
internal_write_24 = wilc_cmd([0xC3, 0x00, 0x24, 0x00, 0x00, 0x00, 0x50])  # CRC off, 8 KiB
single_read_chipid = wilc_cmd([0xCA, 0x00, 0x10, 0x00], crc=False)
clk_status_poll = wilc_cmd([0xC4, 0x80, 0x0F, 0x00], crc=False)
wakeup = wilc_cmd([0xC3, 0x80, 0x01, 0x00, 0x00, 0x00, 0x02], crc=False)
dma_write = wilc_cmd([0xC7, 0x0D, 0x00, 0x00, 0x00, 0x00, 0x0C], crc=False)
dma_read = wilc_cmd([0xC8, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10], crc=False)
reset = wilc_cmd([0xCF, 0xFF, 0xFF, 0xFF], crc=False)
z = lambda n: [0] * n
# First byte: the setup (0 = reset state: CRC7 and CRC16 on, packet size field 0).
put("wilc1000_spi", "crc-negotiation",
    [0x00] + spi_frame(1, (internal_read_24 + z(12), False)) +
    spi_frame(1, (internal_write_24 + z(2), False)) +
    spi_frame(1, (single_read_chipid + z(10), False)))
put("wilc1000_spi", "wakeup-poll-reset",
    [0x00] + spi_frame(1, (internal_write_24 + z(2), False)) +
    spi_frame(1, (wakeup + z(2), False)) +
    spi_frame(20, (clk_status_poll + z(10), False)) +
    spi_frame(20, (clk_status_poll + z(10), False)) +
    spi_frame(1, (reset + z(2), False)))
put("wilc1000_spi", "dma-write-read",
    [0x50] + spi_frame(1, (internal_write_24 + z(2), False)) +
    spi_frame(1, (dma_write + z(2), False)) +
    spi_frame(1, ([0xF3], False), (list(range(12)), False), (z(4), False)) +
    spi_frame(1, (dma_read + z(2), False)) +
    spi_frame(1, (z(4), False), (z(16), False)))

put("wilc1000_spi", "crc-off-dma-crc16",  # CRC7 off, CRC16 on: DMA data packets carry CRC16
    [0x51] + spi_frame(1, (dma_write + z(2), False)) +
    spi_frame(1, ([0xF3], False), (list(range(12)), False), ([0x12, 0x34], False), (z(4), False)))

# ---- WILC1000 SDIO ---------------------------------------------------------------------------
def sdio(cmd53, write, fn, addr, count=0, bs=0, block=False, data=b"", raw=False, step=1):
    f = (1 if cmd53 else 0) | (2 if write else 0) | (4 if raw else 0) | (16 if block else 0) | fn << 5
    b = [f] + list(struct.pack("<I", addr))
    if cmd53:
        b += list(struct.pack("<HH", count - 1, bs - 1 if block else 0))
    b += [step]
    if write:
        b += list(data) if data else z(1 if not cmd53 else (count * bs if block else count))
    return b


put("wilc1000_sdio", "cccr-and-wakeup",
    sdio(False, False, 0, 0x00) + sdio(False, False, 0, 0x08) +
    sdio(False, True, 0, 0x07, data=[0x02]) +          # bus width 4
    sdio(False, True, 0, 0x110, data=[0x00]) +         # F1 block size 512
    sdio(False, True, 0, 0x111, data=[0x02]) +
    sdio(False, True, 0, 0x0FA, data=[0x01]) +         # host_to_fw
    sdio(False, True, 0, 0x0F0, data=[0x01]) +         # wakeup
    sdio(False, False, 0, 0x0F1, step=50))             # clk_status
put("wilc1000_sdio", "cmd53-csa-and-f1",
    sdio(False, True, 0, 0x10C, data=[0x00]) + sdio(False, True, 0, 0x10D, data=[0x10]) +
    sdio(False, True, 0, 0x10E, data=[0x00]) +
    sdio(True, False, 0, 0x10F, count=4) +
    sdio(True, True, 1, 0x000, count=3, bs=512, block=True, data=bytes(range(256)) * 6) +
    sdio(True, False, 1, 0x000, count=100))

# ---- KS8851 SPI: byte 0 [op][BE3..0][A7 A6], byte 1 [A5..A0][00] ----------------------------
def ks_reg(op, be, reg, data=()):
    return [(op << 6) | (be << 2) | (reg >> 6), (reg << 2) & 0xFC] + list(data)


put("ks8851_spi", "registers",
    spi_frame(1, (ks_reg(0, 0x3, 0xC0) + z(2), False)) +          # RD CIDER
    spi_frame(1, (ks_reg(1, 0xC, 0x92, [0xFF, 0xFF]), False)) +   # WR ISR
    spi_frame(1, (ks_reg(1, 0x3, 0x70, [0x00, 0x08]), False)) +   # TXCR
    spi_frame(1, (ks_reg(0, 0xC, 0x90) + z(2), False)))           # RD IER
put("ks8851_spi", "txq-rxq",
    spi_frame(1, (ks_reg(1, 0x3, 0x82, [0x08, 0x00]), False)) +   # RXQCR SDA
    spi_frame(1, ([0xC0], False), (list(struct.pack("<HH", 0x8001, 60)) + z(60), False)) +
    spi_frame(1, ([0x80], False), (z(4 + 64), False)))

# ---- ENC28J60 SPI: byte 0 [op2..0][a4..a0] -------------------------------------------------------
put("enc28j60_spi", "registers",
    spi_frame(1, ([0x1F, 0x00], False)) +                 # RCR ECON1
    spi_frame(1, ([0x5F, 0x03], False)) +                 # WCR ECON1: bank 3
    spi_frame(1, ([0x12, 0x00], False)) +                 # RCR EREVID
    spi_frame(1, ([0x9F, 0x04], False)) +                 # BFS ECON1 RXEN
    spi_frame(1, ([0xBF, 0x03], False)))                  # BFC ECON1: bank 0
put("enc28j60_spi", "buffer-and-reset",
    spi_frame(1, ([0x7A] + list(range(64)), False)) +     # WBM 64 bytes
    spi_frame(1, ([0x3A], False), (z(64), False)) +       # RBM 64 bytes
    spi_frame(1, ([0xFF], False)))                        # SRC

# ---- KS8851 parallel bus: flags (bit0 write, bit1 cmd), u16 data, spare -----------------------
def par(write, cmd, data, step=1):
    return [(1 if write else 0) | (2 if cmd else 0) | step << 4] + list(struct.pack("<H", data)) + [0]


put("ks8851_par", "registers",
    [0] + par(True, True, 0x30C0) + par(False, False, 0) +   # CMD CIDER, read
    par(True, True, 0xC092) + par(True, False, 0xFFFF) +     # ISR clear
    par(True, True, 0x3082) + par(True, False, 0x0008) +     # RXQCR SDA
    par(True, False, 0x8001) + par(True, False, 60) + par(True, False, 0) +
    par(False, False, 0) + par(False, False, 0))
put("ks8851_par", "wrong-strap", [1] + par(True, True, 0xC0C0) + par(False, False, 0))

# ---- frames ----------------------------------------------------------------------------------
def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return (~s) & 0xFFFF


def ipv4(proto, l4, src=b"\xc0\xa8\x00\x01", dst=b"\xc0\xa8\x00\x02"):
    h = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(l4), 1, 0x4000, 64, proto, 0, src, dst)
    h = h[:10] + struct.pack("!H", csum(h)) + h[12:]
    return h, src, dst


def eth(payload):
    return b"\x02\x00\x00\x00\x00\x02" + b"\x02\x00\x00\x00\x00\x01" + b"\x08\x00" + payload


def l4_frame(proto, l4):
    src, dst = b"\xc0\xa8\x00\x01", b"\xc0\xa8\x00\x02"
    pseudo = src + dst + struct.pack("!BBH", 0, proto, len(l4))
    c = csum(pseudo + l4)
    off = 16 if proto == 6 else 6
    l4 = l4[:off] + struct.pack("!H", c) + l4[off + 2:]
    h, _, _ = ipv4(proto, l4)
    return eth(h + l4)


tcp = struct.pack("!HHIIBBHHH", 5001, 40000, 1, 2, 8 << 4, 0x18, 65535, 0, 0) + \
    b"\x01\x01\x08\x0a" + struct.pack("!II", 123, 456) + b"hello"
put("frame_parser", "tcp-timestamps", l4_frame(6, tcp))
put("frame_parser", "udp", l4_frame(17, struct.pack("!HHHH", 5001, 5002, 8 + 4, 0) + b"data"))
icmp = struct.pack("!BBHHH", 8, 0, 0, 1, 1) + b"ping"
icmp = icmp[:2] + struct.pack("!H", csum(icmp)) + icmp[4:]
h, _, _ = ipv4(1, icmp)
put("frame_parser", "icmp", eth(h + icmp))
put("frame_parser", "mac-text", b"02:00:00:00:00:01")

# ---- WILC1000 firmware config frames (u16 length, then the frame) ----------------------------
def cfg_frame(kind, seq, wids, handler=1):
    body = b""
    for wid, value in wids:
        wtype = (wid >> 12) & 0xF
        body += struct.pack("<HH", wid, len(value)) + value
        if wtype == 4:  # BIN: a checksum byte after the value
            body += bytes([sum(value) & 0xFF])
    frame = bytes([ord(kind), seq]) + struct.pack("<HI", 8 + len(body), handler) + body
    return struct.pack("<H", len(frame)) + frame


join = bytearray(100)  # struct wilc_join_bss_param of an open BSS
join[0:7] = b"lab-ap\0"
join[34] = 6                                       # channel
join[35:37] = struct.pack("<H", 0x0401)            # capability
join[43:49] = bytes([0x02, 0x00, 0x00, 0x00, 0x0a, 0x01])  # BSSID
join[49:51] = struct.pack("<H", 100)               # beacon period, TU
join[51] = 1                                       # DTIM period
join[52:57] = bytes([4, 0x82, 0x84, 0x8b, 0x96])   # 4 rates
put("wilc1000_config", "connect",
    cfg_frame("W", 1, [(0x00D0, b"\0"), (0x4086, b""), (0x000C, b"\0"), (0x000D, b"\x03"),
                       (0x3998, bytes(join))]) +
    cfg_frame("Q", 2, [(0x3020, b"")]))
put("wilc1000_config", "join-struct", bytes(join))  # whole input = the struct: the join decoder
put("wilc1000_config", "power-save", cfg_frame("W", 3, [(0x000B, b"\x01")]) +
    cfg_frame("W", 4, [(0x0016, b"\0\0")]))

# ---- scenarios -------------------------------------------------------------------------------
for cfg in ("ks8851-spi-iperf-rx", "wilc1000-spi-ttcp-tx", "wilc1000-sdio-ttcp-rx",
            "ks8851-par-iperf-tx", "enc28j60-spi-iperf-rx", "ks8851-spi-ping"):
    with open(os.path.join(root, "configs", cfg + ".yaml"), "rb") as f:
        put("scenario_loader", cfg, f.read())
with open(os.path.join(root, "configs", "wilc1000-spi-ttcp-tx.yaml"), "rb") as f:
    put("scenario_loader", "set-and-trace",
        b"#set driver.power_save=false\n" + f.read() +
        b"\ntrace:\n  log: /dev/null\n  window_start: 1ms\n  max_size: 1MB\n")
# ---- sweep and validation files: "@CONFIGS@" stands for configs/ (the targets replace it) ----
for study in ("ks8851-spi-clock", "wilc1000-power-save", "wilc1000-sleep-mechanism"):
    with open(os.path.join(root, "configs", "studies", study + ".yaml"), "rb") as f:
        put("sweep_spec", study, f.read().replace(b"../", b"@CONFIGS@/"))
for check in ("ks8851-spi-iperf-rx", "wilc1000-spi-ttcp-tx-ps-on"):
    with open(os.path.join(root, "configs", "validation", check + ".yaml"), "rb") as f:
        put("validation_spec", check, f.read().replace(b"../", b"@CONFIGS@/"))

# ---- reports as `nicsim run --json` writes them (with a nicsim binary as the first argument) ---
if len(sys.argv) > 1:
    for cfg in ("ks8851-spi-ping", "wilc1000-spi-ttcp-tx"):
        report = subprocess.run([sys.argv[1], "run", os.path.join(root, "configs", cfg + ".yaml"),
                                 "--set", "traffic.bytes=64KiB" if "ttcp" in cfg else "seed=1",
                                 "--json", "-", "-q"], capture_output=True, check=True).stdout
        put("report_reader", cfg, report)
print("seeds written to", out, file=sys.stderr)
