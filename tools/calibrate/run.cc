// SPDX-License-Identifier: MIT
// `nicsim calibrate`: the runs — key choice, fit, sensitivities, leave-one-out (calibrate.h run).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <ostream>
#include <sstream>
#include <stdexcept>

#include "tools/calibrate/calibrate.h"
#include "tools/report/text_layout.h"

namespace nicsim::calibrate {
namespace {

// In the unit the measurement was published in.
double in_measured_unit(const validate::check& c, double v) {
    return c.measured_in_metric_unit != 0 ? v * c.measured.value / c.measured_in_metric_unit : v;
}

// One evaluation: every measurement's scenario (each seed of its file) with the keys set to x;
// the predictions are the means over the seeds. Repeated candidates come from a cache.
class evaluation {
  public:
    evaluation(const std::vector<validate::check>& checks, const request& r, std::ostream& out)
        : checks_(checks), out_(out) {
        o_.exe = r.exe;
        o_.jobs = r.jobs;
        o_.accept_short_runs = true;
    }

    std::vector<double> operator()(const std::vector<key_plan>& keys,
                                   const std::vector<tie_plan>& ties, const std::vector<double>& x) {
        std::vector<std::string> sets;
        std::string label;
        for (size_t j = 0; j < keys.size(); ++j) {
            const std::string v = format_quantity(x[j], keys[j].unit, keys[j].key.integer);
            sets.push_back("platform." + keys[j].key.name + "=" + v);
            // While choosing keys every candidate but one is at its profile value: name the one.
            if (keys.size() <= 4 || v != keys[j].old_text)
                label += (label.empty() ? "" : ", ") + keys[j].key.name + "=" + v;
        }
        if (label.empty())
            label = "the profile's values";
        for (const auto& t : ties)
            sets.push_back("platform." + t.path + "=" +
                           format_quantity(t.factor * x[t.of], keys[t.of].unit, false));
        if (const auto it = cache_.find(sets); it != cache_.end())
            return it->second;
        std::vector<validate::check> checks = checks_;
        for (auto& c : checks)
            for (const auto& s : sets) {
                const size_t eq = s.find('=');
                c.set.push_back({s.substr(0, eq), s.substr(eq + 1)});
            }
        std::ostringstream quiet; // per-run progress: one line per evaluation below instead
        const std::vector<validate::outcome> res = validate::run_checks(checks, o_, quiet);
        std::vector<double> pred;
        std::string line = "  [" + std::to_string(++count_) + "] " + label + " →";
        for (size_t i = 0; i < res.size(); ++i) {
            if (!res[i].problem.empty() || !res[i].predicted)
                throw std::runtime_error(checks_[i].name + " with " + label + ": " +
                                         (res[i].problem.empty() ? "no prediction"
                                                                 : res[i].problem));
            pred.push_back(*res[i].predicted);
            const auto& c = checks_[i];
            line += (i ? ", " : " ") + c.name + " " +
                    figure(in_measured_unit(c, *res[i].predicted)) + " " + c.measured.unit;
            if (c.measured_in_metric_unit != 0) // a measurement, not a --predict scenario
                line += " (" +
                        fmt("%+.2f", (*res[i].predicted / c.measured_in_metric_unit - 1) * 100) +
                        " %)";
        }
        out_ << line << "\n" << std::flush;
        cache_[sets] = pred;
        return pred;
    }

    int count() const { return count_; }

  private:
    const std::vector<validate::check>& checks_;
    std::ostream& out_;
    validate::options o_;
    std::map<std::vector<std::string>, std::vector<double>> cache_;
    int count_ = 0;
};

std::vector<fit_key> fit_keys(const std::vector<key_plan>& keys) {
    std::vector<fit_key> out;
    for (const auto& k : keys)
        out.push_back(k.key);
    return out;
}

std::vector<double> starts(const std::vector<key_plan>& keys) {
    std::vector<double> x;
    for (const auto& k : keys)
        x.push_back(written_value(k.key, k.key.start));
    return x;
}

// The default keys: the profile's assumptions ranked by how much they move the measurements,
// at most one per measurement (each the key that moves it most, the strongest pairs first).
std::string choose_keys(plan& p, evaluation& ev, std::ostream& out) {
    std::vector<std::string> refused;
    const std::vector<key_plan> cand = assumption_keys(p, &refused);
    if (cand.empty())
        throw std::runtime_error(p.profile.file + " marks no numeric key as an assumption: name "
                                                  "the keys to fit with --key");
    out << "choosing the keys: " << cand.size() << " assumptions of " << p.profile.file
        << ", each moved by " << fit_options{}.rel_step * 100 << " %\n";
    const evaluator eval = [&](const std::vector<double>& x) { return ev(cand, {}, x); };
    const std::vector<double> x = starts(cand);
    const std::vector<double> base = eval(x);
    const auto e = elasticities(fit_keys(cand), x, base, eval);
    struct pair {
        double mag;
        size_t key, meas;
    };
    std::vector<pair> pairs;
    for (size_t i = 0; i < e.size(); ++i)
        for (size_t j = 0; j < cand.size(); ++j)
            if (std::isfinite(e[i][j]) && std::fabs(e[i][j]) >= 0.01)
                pairs.push_back({std::fabs(e[i][j]), j, i});
    std::stable_sort(pairs.begin(), pairs.end(),
                     [](const pair& a, const pair& b) { return a.mag > b.mag; });
    std::vector<bool> key_used(cand.size()), meas_used(e.size());
    std::vector<std::string> why(cand.size());
    for (const auto& pr : pairs)
        if (!key_used[pr.key] && !meas_used[pr.meas]) {
            key_used[pr.key] = meas_used[pr.meas] = true;
            why[pr.key] = "fitted to " + p.checks[pr.meas].name;
        }
    std::string text = "assumptions of the profile and their effect (elasticity: % change of the "
                       "prediction per +1 % of the key):\n";
    for (size_t j = 0; j < cand.size(); ++j) {
        text += "  " + report::pad_right(cand[j].key.name, 36);
        for (size_t i = 0; i < e.size(); ++i)
            text += "  " + report::pad_left(std::isfinite(e[i][j]) ? fmt("%+.3f", e[i][j]) : "-", 7);
        text += why[j].empty() ? "\n" : "  " + why[j] + "\n";
        if (key_used[j])
            p.keys.push_back(cand[j]);
    }
    if (!refused.empty()) {
        text += "not tried (the profile refuses a quarter or four times their value; name them "
                "with --key KEY=LO:HI):\n";
        for (const auto& r : refused)
            text += "  " + r + "\n";
    }
    if (p.keys.empty())
        throw std::runtime_error("none of the profile's assumptions moves a measurement by 0.01 % "
                                 "per % (listed above): nothing to fit");
    return text;
}

} // namespace

result run(plan& p, const request& r, std::ostream& out) {
    evaluation ev(p.checks, r, out);
    result res;
    if (p.keys.empty()) {
        res.screening = choose_keys(p, ev, out);
        out << res.screening;
    }
    const std::vector<fit_key> keys = fit_keys(p.keys);
    const evaluator eval = [&](const std::vector<double>& x) { return ev(p.keys, p.ties, x); };
    out << "fitting " << keys.size() << " key" << (keys.size() == 1 ? "" : "s") << " to "
        << p.checks.size() << " measurement" << (p.checks.size() == 1 ? "" : "s") << ":\n";
    res.fit = fit(keys, p.targets, eval);
    res.written = res.fit.x;
    res.predicted = res.fit.predicted;
    out << "sensitivities at the fitted values:\n";
    res.elasticity = elasticities(keys, res.written, res.predicted, eval);
    res.spread = key_spread(res.elasticity, p.targets);
    if (p.checks.size() > keys.size()) {
        out << "leave-one-out:\n";
        std::vector<fit_key> from = keys;
        for (size_t j = 0; j < from.size(); ++j)
            from[j].start = res.written[j];
        for (size_t i = 0; i < p.checks.size(); ++i) {
            std::vector<bool> use(p.checks.size(), true);
            use[i] = false;
            const fit_result f = fit(from, p.targets, eval, {}, use);
            res.leave_one_out.push_back({f.x, f.predicted[i]});
        }
    }
    res.evaluations = ev.count();
    for (const auto& c : p.checks)
        res.runs_per_evaluation += int(std::max<size_t>(1, c.seeds.size()));
    return res;
}

void predict_others(const plan& p, const request& r, result& res, std::ostream& out) {
    if (p.predictions.empty())
        return;
    out << "\nthe other predictions (--predict) at the fitted values and +"
        << fit_options{}.rel_step * 100 << " % of each key:\n";
    evaluation ev(p.predictions, r, out);
    const evaluator eval = [&](const std::vector<double>& x) { return ev(p.keys, p.ties, x); };
    res.other = eval(res.written);
    res.other_elasticity = elasticities(fit_keys(p.keys), res.written, res.other, eval);
}

bool within_tolerance(const plan& p, const result& res) {
    for (size_t i = 0; i < p.checks.size(); ++i)
        if (std::fabs(res.predicted[i] / p.targets[i].value - 1) > p.targets[i].tolerance)
            return false;
    return true;
}

} // namespace nicsim::calibrate
