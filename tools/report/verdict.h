// SPDX-License-Identifier: MIT
//
// The verdict of a run that completed: did the traffic deliver what the scenario asked for?
// A run that ends by its duration limit with half the bytes moved, a UDP flood of which 3 % of
// the datagrams arrived, or a ping with lost replies is not a success even though nothing
// "failed". judge() compares the report's flows with the scenario's traffic settings and adds
// one finding per shortfall (source "verdict"), naming what was asked, what arrived and when
// the receiving application last got data, so the cause can be read from the report alone.
//
// The CLI turns a failed verdict into exit code 4 (docs/scenarios.md "Exit codes"); the report
// is written as usual.
#pragma once

#include <string>

#include "core/config/scenario_config.h"
#include "core/report/report.h"

namespace nicsim::report {

// Appends the verdict findings to r.findings. True when every flow delivered what was asked:
//  - TCP with traffic.bytes > 0: all bytes delivered; with bytes 0 ("until duration"): any, and
//    the receiver got data within the last 3 s of the run (else the flow stopped: four RTO
//    back-offs from Linux's 200 ms minimum are 3 s).
//  - UDP with bytes > 0: every datagram asked for arrived; with bytes 0: any arrived, within the
//    last 3 s as for TCP, and no more than traffic.max_loss of the datagrams sent were lost
//    (default 10 %; loss up to it is a warning: datagrams still in flight when the duration
//    ends count as lost).
//  - ping: a reply to every request asked for (traffic.count).
// UDP and ping flows always get a summary finding ("N packets transmitted, M received, X%
// packet loss"), as a warning when anything was lost and as info otherwise.
bool judge(const config::traffic_config& asked, report& r);

// The scenario's faults (r.faults, docs/faults.md): each gets its outcome ("recovered" when the
// traffic delivered everything, else "not recovered"; "not injected" when it never hit) and a
// one-line reaction, and a finding (source "fault"). False when a fault never hit: a run that
// was meant to test a fault and did not is no success. judge() calls it.
bool judge_faults(bool delivered, report& r);

// "N packets transmitted, M received, X% packet loss" (ping) or "N datagrams sent, M received,
// X% datagram loss" (UDP), X as iputils prints it (%g); "" for flows without packet counts.
std::string loss_summary(const flow_report& f);

} // namespace nicsim::report
