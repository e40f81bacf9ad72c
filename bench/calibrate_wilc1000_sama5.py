#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fits the two calibrated parameters of the WILC1000-on-SAMA5 setup to the two ttcp TX
calibration points of docs/sources.md#cal-wilc1000-sama5 (chip sleep off ~1500 KB/s, on ~400 KB/s),
configs/validation/wilc1000-spi-ttcp-tx-ps-{off,on}.yaml, each run on the driver generation it
was measured with (driver.variant chip-sleep-5.16), by `nicsim calibrate` (docs/your-board.md):

  - the atmel_spi controller's software cost per spi_message, spi_host.per_message_overhead
    (the chip-sleep-on run is made of register messages, so it moves that point most), and
  - the sender's host cost per TCP segment, net_stack.per_segment_sent, with per_ack_recv
    following at half of it (the profile's split; --tie), which moves the chip-sleep-off point.

Both are fitted jointly (each moves both points a little). No chip parameter is fitted
(docs/calibration.md). Each candidate is judged by the mean of seeds 1-5, as the measurements
are means of runs. It writes the fitted profile to OUT (default /tmp/sama5-class-fitted.yaml)
and prints what moved; copy the values into configs/platforms/sama5-class.yaml.
usage: bench/calibrate_wilc1000_sama5.py <build dir> [OUT] [-- more nicsim calibrate options]"""
from calibrate_point import calibrate

calibrate(["wilc1000-spi-ttcp-tx-ps-off.yaml", "wilc1000-spi-ttcp-tx-ps-on.yaml"],
          ["--key", "spi_host.per_message_overhead", "--key", "net_stack.per_segment_sent",
           "--tie", "net_stack.per_ack_recv=0.5*net_stack.per_segment_sent"],
          "/tmp/sama5-class-fitted.yaml")
