// SPDX-License-Identifier: MIT
// WILC1000 addresses and bit fields the model implements (names follow the 6.1 driver's wlan.h
// so a reader can cross-check; values are hardware facts, not driver code).
#pragma once

#include <cstdint>

namespace nicsim::wilc::regmap {

// Clockless space (SPI CMD_INTERNAL_* with address bit 15 set; SDIO F0 0xf0.. on the other bus).
constexpr uint32_t CL_WAKEUP = 0x01;     // bit 1: host wake request
constexpr uint32_t CL_HOST_TO_FW = 0x0b; // bit 0: host doorbell / keep awake
constexpr uint32_t CL_CLK_STATUS = 0x0f; // bit 2: clock ready
constexpr uint32_t CL_FW_TO_HOST = 0x10; // bit 0: firmware busy signalling
constexpr uint32_t CL_SPACE_SIZE = 0x30; // clockless offsets the chip decodes (assumption)
// SDIO F0 vendor registers (sleep/wake handshake 0xf0..0xfc, wilc1000-driver notes §5).
constexpr uint32_t SDIO_VENDOR_FIRST = 0xf0;
constexpr uint32_t SDIO_VENDOR_LAST = 0xff;
constexpr uint32_t WAKEUP_BIT = 1u << 1;
constexpr uint32_t HOST_TO_FW_BIT = 1u << 0;
constexpr uint32_t CLK_STATUS_BIT = 1u << 2;

// Peripheral registers (AHB).
constexpr uint32_t CHIPID = 0x1000;
constexpr uint32_t HOST_TX_CTRL = 0x106c;
constexpr uint32_t HOST_RX_CTRL_0 = 0x1070;
constexpr uint32_t HOST_RX_CTRL_1 = 0x1074;
constexpr uint32_t HOST_VMM_CTL = 0x1078;
constexpr uint32_t HOST_RX_CTRL = 0x1080;
constexpr uint32_t HOST_RX_EXTRA_SIZE = 0x1084;
constexpr uint32_t HOST_TX_CTRL_1 = 0x1088;
constexpr uint32_t CHANGING_VIR_IF = 0x108c;
constexpr uint32_t CORTUS_INTERRUPT_1 = 0x10ac;
constexpr uint32_t CORTUS_INTERRUPT_2 = 0x10b0;
constexpr uint32_t CORTUS_RESET_MUX_SEL = 0x1118;
constexpr uint32_t FW_HOST_COMM = 0x13c0;
constexpr uint32_t RF_REVISION_ID = 0x13f4;
constexpr uint32_t GLB_RESET_0 = 0x1400;
constexpr uint32_t PIN_MUX_0 = 0x1408;
constexpr uint32_t MISC = 0x1428;
constexpr uint32_t GP_REG_0 = 0x149c;
constexpr uint32_t GP_REG_1 = 0x14a0;
// What the 6.12 driver reads besides (Linux 6.12 fw.h/wlan.h): the eFuse NV memory banks that
// hold the MAC address (wilc_load_mac_from_nv at probe; bank i at NVMEM_BANK_BASE + LOW + 32 i
// for i < 2, + HIGH + 16 (i - 2) above; word 0: bit 31 used, bit 30 invalid, MAC bytes 0-2 in
// bits 23-0; word 1: MAC bytes 3-5 in bits 31-8), and the WiFi enable bits wilc_wlan_stop clears.
// [assumption] SPI single reads carry 24 address bits, so 0x3000102c arrives as 0x00102c: the
// model decodes both; bank 0 holds params::mac_addr, the others are unused.
constexpr uint32_t NVMEM_BANK_BASE = 0x30000000;
constexpr uint32_t NVMEM_LOW_BANK = 0x102c;
constexpr uint32_t NVMEM_HIGH_BANK = 0x1380;
constexpr unsigned NVMEM_BANKS = 6;
constexpr uint32_t NVMEM_BANK_USED = 1u << 31;
constexpr uint32_t GLOBAL_MODE_CONTROL = 0x1614; // bit 0: WiFi enabled [assumption: reset 1]
constexpr uint32_t PWR_SEQ_MISC_CTRL = 0x3008;   // bit 28: WiFi sleep enabled [assumption: reset 1]
constexpr uint32_t INTR_ENABLE = 0x1a00;
constexpr uint32_t INTR2_ENABLE = 0x1a04;
constexpr uint32_t INTR_POLARITY = 0x1a10;
constexpr uint32_t INTR_TYPE = 0x1a20;
constexpr uint32_t INTR_CLEAR = 0x1a30;
constexpr uint32_t INTR_STATUS = 0x1a40;
constexpr uint32_t REG_4_TO_1_RX = 0x1e1c;
constexpr uint32_t REG_4_TO_1_TX_BANK0 = 0x1e9c;
constexpr uint32_t CORTUS_BOOT_REGISTER = 0xc0000;
constexpr uint32_t VMM_BASE = 0x150000;
constexpr uint32_t VMM_CORE_CFG = 0x150014;
constexpr uint32_t VMM_CORE_CFG_SPI = 1u << 0;  // driver value on SPI
constexpr uint32_t VMM_CORE_CFG_SDIO = 1u << 3; // driver value on SDIO
constexpr uint32_t VMM_TABLE = 0xd0000;         // host writes the TX VMM table here (shared memory)

// SPI controller (AHB 0xe800 + offset; CMD_INTERNAL_* without bit 15 addresses the offset).
constexpr uint32_t SPI_BASE = 0xe800;
constexpr uint32_t SPI_CTL = 0xe800;
constexpr uint32_t SPI_MASTER_DMA_ADDR = 0xe804;
constexpr uint32_t SPI_MASTER_DMA_COUNT = 0xe808;
constexpr uint32_t SPI_SLAVE_DMA_ADDR = 0xe80c;
constexpr uint32_t SPI_SLAVE_DMA_COUNT = 0xe810;
constexpr uint32_t SPI_TX_MODE = 0xe820;
constexpr uint32_t SPI_PROTOCOL_CONFIG = 0xe824;
constexpr uint32_t SPI_INTR_CTL = 0xe82c;
constexpr uint32_t SPI_INT_STATUS = 0xe840;
constexpr uint32_t SPI_INT_CLEAR = 0xe844;

// Field values.
constexpr uint32_t GLB_RESET_CPU_RUN = 1u << 10;
constexpr uint32_t PIN_MUX_IRQ = 1u << 8;
constexpr uint32_t INTR_ENABLE_INT0 = 1u << 27;
constexpr uint32_t PROTO_CRC7 = 1u << 2;
constexpr uint32_t PROTO_CRC16 = 1u << 3;
constexpr uint32_t PROTO_PKT_SZ_SHIFT = 4; // [6:4] = log2(size) - 8
constexpr uint32_t PROTO_PKT_SZ_MASK = 7u << 4;
constexpr uint32_t INT_SIZE_MASK = 0x7fff; // [14:0] words
constexpr uint32_t INT0 = 1u << 16;
constexpr uint32_t CLR_INT0 = 1u << 0;
constexpr uint32_t SEL_VMM_TBL0 = 1u << 6;
constexpr uint32_t SEL_VMM_TBL1 = 1u << 7;
constexpr uint32_t EN_VMM = 1u << 8;
constexpr uint32_t VMM_CTL_REQUEST = 1u << 1;
constexpr uint32_t VMM_ENTRY_AVAILABLE = 1u << 2;
constexpr uint32_t VMM_ENTRY_COUNT_SHIFT = 3; // [8:3]
constexpr uint32_t VMM_TBL_WORDS_MASK = 0x3ff;
constexpr uint32_t VMM_TBL_CFG = 1u << 10;
constexpr unsigned VMM_TBL_SIZE = 64;

// TX VMM entry header and payload offsets.
constexpr uint32_t TXH_TYPE_CFG = 1u << 31;
constexpr uint32_t TXH_MGMT = 1u << 30;
constexpr unsigned TXH_PKT_SIZE_SHIFT = 15; // [29:15]
constexpr uint32_t TXH_BUFF_SIZE_MASK = 0x7fff;
constexpr uint32_t TX_NET_OFFSET = 34; // ETH_ETHERNET_HDR_OFFSET
constexpr uint32_t TX_CFG_OFFSET = 76; // ETH_CONFIG_PKT_HDR_OFFSET
constexpr uint32_t TX_MGMT_OFFSET = 4; // HOST_HDR_OFFSET

// RX packet header.
constexpr uint32_t RXH_CFG = 1u << 31;
constexpr unsigned RXH_OFFSET_SHIFT = 22; // [30:22]
constexpr unsigned RXH_TOTAL_SHIFT = 11;  // [21:11]
constexpr uint32_t RXH_LEN_MASK = 0x7ff;  // [10:0]

// WIDs with firmware-side meaning in the model.
constexpr uint16_t WID_STATUS = 0x0005;
constexpr uint16_t WID_POWER_MANAGEMENT = 0x000B;
constexpr uint16_t WID_LISTEN_INTERVAL = 0x000F;
// The statistics the driver's hif.c queries every 5 s while connected (wilc_get_statistics).
constexpr uint16_t WID_RSSI = 0x001F;
constexpr uint16_t WID_LINKSPEED = 0x0026;
constexpr uint16_t WID_FAILED_COUNT = 0x2000;
constexpr uint16_t WID_RECEIVED_FRAGMENT_COUNT = 0x2005;
constexpr uint16_t WID_SUCCESS_FRAME_COUNT = 0x2008;
constexpr uint16_t WID_FIRMWARE_VERSION = 0x3001;
constexpr uint16_t WID_MAC_ADDR = 0x300C;
// The connect sequence (hif.c wilc_send_connect_wid, host_int_get_assoc_res_info,
// handle_connect_timeout; wilc1000_join.h).
constexpr uint16_t WID_11I_MODE = 0x000C;
constexpr uint16_t WID_AUTH_TYPE = 0x000D;
constexpr uint16_t WID_DISCONNECT = 0x0016;
constexpr uint16_t WID_SET_MFP = 0x00D0;
constexpr uint16_t WID_ASSOC_RES_INFO = 0x3020;
constexpr uint16_t WID_JOIN_REQ_EXTENDED = 0x3998;
constexpr uint16_t WID_INFO_ELEMENT_ASSOCIATE = 0x4086;

} // namespace nicsim::wilc::regmap
