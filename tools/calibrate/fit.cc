// SPDX-License-Identifier: MIT
#include "tools/calibrate/fit.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace nicsim::calibrate {
namespace {

using matrix = std::vector<std::vector<double>>;
constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// Solves a x = b (small, dense) by elimination with partial pivoting; false when singular.
bool solve(matrix a, std::vector<double> b, std::vector<double>& x) {
    const size_t n = b.size();
    double scale = 0;
    for (const auto& row : a)
        for (double v : row)
            scale = std::max(scale, std::fabs(v));
    for (size_t c = 0; c < n; ++c) {
        size_t p = c;
        for (size_t r = c + 1; r < n; ++r)
            if (std::fabs(a[r][c]) > std::fabs(a[p][c]))
                p = r;
        if (!(std::fabs(a[p][c]) > 1e-12 * scale))
            return false;
        std::swap(a[p], a[c]);
        std::swap(b[p], b[c]);
        for (size_t r = c + 1; r < n; ++r) {
            const double f = a[r][c] / a[c][c];
            for (size_t k = c; k < n; ++k)
                a[r][k] -= f * a[c][k];
            b[r] -= f * b[c];
        }
    }
    x.assign(n, 0);
    for (size_t c = n; c-- > 0;) {
        double s = b[c];
        for (size_t k = c + 1; k < n; ++k)
            s -= a[c][k] * x[k];
        x[c] = s / a[c][c];
    }
    return true;
}

// The fit's state: keys scaled to their start value (so steps and the Broyden update compare
// keys of different units), residuals in tolerances.
class problem {
  public:
    problem(const std::vector<fit_key>& keys, const std::vector<target>& targets,
            const evaluator& eval, const fit_options& o, const std::vector<bool>& use)
        : keys_(keys), targets_(targets), eval_(eval), o_(o), use_(use) {
        if (use_.empty())
            use_.assign(targets.size(), true);
    }

    std::vector<double> residuals(const std::vector<double>& p) const {
        std::vector<double> r;
        for (size_t i = 0; i < targets_.size(); ++i)
            if (use_[i])
                r.push_back((p[i] - targets_[i].value) / targets_[i].value / targets_[i].tolerance);
        return r;
    }
    static double cost(const std::vector<double>& r) {
        double s = 0;
        for (double v : r)
            s += v * v;
        return s;
    }
    double scale(size_t j) const {
        const double s = std::fabs(keys_[j].start);
        return s > 0 ? s : keys_[j].hi - keys_[j].lo;
    }
    std::vector<double> predict(const std::vector<double>& x) {
        ++evaluations;
        std::vector<double> p = eval_(x);
        if (p.size() != targets_.size())
            throw fit_error("an evaluation returned " + std::to_string(p.size()) +
                            " predictions for " + std::to_string(targets_.size()) + " targets");
        return p;
    }
    double step_of(size_t j, double x) const {
        const fit_key& k = keys_[j];
        double d = o_.rel_step * (x != 0 ? std::fabs(x) : k.hi - k.lo);
        if (k.integer)
            d = std::max(1.0, std::round(d));
        return x + d <= k.hi ? d : -d;
    }
    // J[i][j] = d r_i / d u_j by forward (or, at the upper bound, backward) steps.
    matrix jacobian(const std::vector<double>& x, const std::vector<double>& r) {
        matrix J(r.size(), std::vector<double>(keys_.size()));
        for (size_t j = 0; j < keys_.size(); ++j) {
            std::vector<double> xs = x;
            xs[j] = written_value(keys_[j], x[j] + step_of(j, x[j]));
            const double du = (xs[j] - x[j]) / scale(j);
            const std::vector<double> rs = residuals(predict(xs));
            for (size_t i = 0; i < r.size(); ++i)
                J[i][j] = du != 0 ? (rs[i] - r[i]) / du : 0;
        }
        return J;
    }
    // The Gauss-Newton step in u for the keys not held on a bound.
    bool step(const matrix& J, const std::vector<double>& r, const std::vector<double>& x,
              std::vector<double>& du, std::vector<bool>& held) const {
        const size_t k = keys_.size();
        held.assign(k, false);
        for (int pass = 0; pass <= int(k); ++pass) {
            std::vector<size_t> free;
            for (size_t j = 0; j < k; ++j)
                if (!held[j])
                    free.push_back(j);
            du.assign(k, 0);
            if (free.empty())
                return true;
            matrix a(free.size(), std::vector<double>(free.size()));
            std::vector<double> b(free.size()), s;
            for (size_t p = 0; p < free.size(); ++p) {
                for (size_t q = 0; q < free.size(); ++q)
                    for (size_t i = 0; i < r.size(); ++i)
                        a[p][q] += J[i][free[p]] * J[i][free[q]];
                for (size_t i = 0; i < r.size(); ++i)
                    b[p] -= J[i][free[p]] * r[i];
            }
            if (!solve(a, b, s))
                return false;
            bool more = false;
            for (size_t p = 0; p < free.size(); ++p) {
                const size_t j = free[p];
                du[j] = s[p];
                const double xn = x[j] + s[p] * scale(j);
                if ((xn < keys_[j].lo && x[j] <= keys_[j].lo) ||
                    (xn > keys_[j].hi && x[j] >= keys_[j].hi)) {
                    held[j] = true; // on its bound and pulled past it
                    more = true;
                }
            }
            if (!more)
                return true;
        }
        return true;
    }
    std::vector<double> moved(const std::vector<double>& x, const std::vector<double>& du,
                              double f) const {
        std::vector<double> xn = x;
        for (size_t j = 0; j < x.size(); ++j)
            xn[j] = written_value(keys_[j], std::clamp(x[j] + f * du[j] * scale(j), keys_[j].lo,
                                                       keys_[j].hi));
        return xn;
    }
    const std::vector<fit_key>& keys() const { return keys_; }
    const fit_options& options() const { return o_; }

    int evaluations = 0;

  private:
    const std::vector<fit_key>& keys_;
    const std::vector<target>& targets_;
    const evaluator& eval_;
    fit_options o_;
    std::vector<bool> use_;
};

std::string unmoved_keys(const problem& pb, const matrix& J) {
    std::string names;
    for (size_t j = 0; j < pb.keys().size(); ++j) {
        bool zero = true;
        for (const auto& row : J)
            zero = zero && row[j] == 0;
        if (zero)
            names += (names.empty() ? "" : ", ") + pb.keys()[j].name;
    }
    return names;
}

} // namespace

double written_value(const fit_key& k, double x) {
    if (k.integer)
        return std::round(x);
    if (x == 0 || !std::isfinite(x))
        return x;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", x);
    return std::strtod(buf, nullptr);
}

fit_result fit(const std::vector<fit_key>& keys, const std::vector<target>& targets,
               const evaluator& eval, const fit_options& o, const std::vector<bool>& use) {
    problem pb(keys, targets, eval, o, use);
    std::vector<double> x;
    for (const auto& k : keys)
        x.push_back(written_value(k, std::clamp(k.start, k.lo, k.hi)));
    fit_result res;
    std::vector<double> p = pb.predict(x);
    std::vector<double> r = pb.residuals(p);
    matrix J = pb.jacobian(x, r);
    bool fresh = true; // J from finite differences at x (not a Broyden update)
    std::vector<bool> held(keys.size(), false);
    auto small = [&](const std::vector<double>& rr) {
        for (size_t i = 0, u = 0; i < targets.size(); ++i)
            if (use.empty() || use[i]) {
                if (std::fabs(rr[u++] * targets[i].tolerance) > o.residual_tol)
                    return false;
            }
        return true;
    };
    for (int it = 0; it < o.max_steps && !res.converged; ++it) {
        if (small(r)) {
            res.converged = true;
            break;
        }
        std::vector<double> du;
        const bool solved = pb.step(J, r, x, du, held);
        if (!solved && !fresh) { // an updated J gone singular: measure it again
            J = pb.jacobian(x, r);
            fresh = true;
            continue;
        }
        if (!solved) {
            const std::string names = unmoved_keys(pb, J);
            if (!names.empty())
                throw fit_error("no measurement moves " + names + " (between its value and " +
                                std::to_string(int(o.rel_step * 100)) +
                                " % more): it cannot be fitted to them");
            throw fit_error("the keys move the predictions alike: they cannot be told apart by "
                            "these measurements (name fewer keys, or add a measurement that "
                            "moves one but not the other)");
        }
        bool tiny = true;
        for (size_t j = 0; j < keys.size(); ++j)
            tiny = tiny && std::fabs(du[j] * pb.scale(j)) <= o.key_tol * std::fabs(x[j]);
        if (tiny) {
            res.converged = true;
            break;
        }
        // Halve a step that makes the fit worse, up to three times.
        bool accepted = false;
        std::vector<double> xn, pn, rn;
        for (double f = 1; f >= 0.125 && !accepted; f /= 2) {
            xn = pb.moved(x, du, f);
            if (xn == x)
                break;
            pn = pb.predict(xn);
            rn = pb.residuals(pn);
            accepted = problem::cost(rn) < problem::cost(r);
        }
        if (!accepted) {
            if (fresh) { // no better point along the best direction: as close as it gets
                res.converged = true;
                break;
            }
            J = pb.jacobian(x, r);
            fresh = true;
            continue;
        }
        // Broyden: J += (dr - J du) du^T / (du^T du), du the scaled step actually taken.
        std::vector<double> dx(keys.size());
        double dd = 0;
        bool key_small = true;
        for (size_t j = 0; j < keys.size(); ++j) {
            dx[j] = (xn[j] - x[j]) / pb.scale(j);
            dd += dx[j] * dx[j];
            key_small = key_small && std::fabs(xn[j] - x[j]) <=
                                         o.key_tol * std::max(std::fabs(xn[j]), 1e-300);
        }
        for (size_t i = 0; i < rn.size(); ++i) {
            double jd = 0;
            for (size_t j = 0; j < keys.size(); ++j)
                jd += J[i][j] * dx[j];
            for (size_t j = 0; j < keys.size(); ++j)
                J[i][j] += (rn[i] - r[i] - jd) * dx[j] / dd;
        }
        fresh = false;
        x = xn;
        p = pn;
        r = rn;
        if (key_small)
            res.converged = true;
    }
    res.x = x;
    res.predicted = p;
    res.at_bound.assign(keys.size(), false);
    for (size_t j = 0; j < keys.size(); ++j)
        res.at_bound[j] = held[j] || ((x[j] <= keys[j].lo || x[j] >= keys[j].hi) && !small(r));
    res.evaluations = pb.evaluations;
    return res;
}

std::vector<std::vector<double>> elasticities(const std::vector<fit_key>& keys,
                                              const std::vector<double>& x,
                                              const std::vector<double>& base,
                                              const evaluator& eval, const fit_options& o) {
    std::vector<std::vector<double>> e(base.size(), std::vector<double>(keys.size(), nan));
    for (size_t j = 0; j < keys.size(); ++j) {
        if (x[j] == 0)
            continue;
        double d = o.rel_step * std::fabs(x[j]);
        if (keys[j].integer)
            d = std::max(1.0, std::round(d));
        if (x[j] + d > keys[j].hi)
            d = -d;
        std::vector<double> xs = x;
        xs[j] = written_value(keys[j], x[j] + d);
        if (xs[j] == x[j])
            continue;
        const std::vector<double> p = eval(xs);
        const double rel = (xs[j] - x[j]) / x[j];
        for (size_t i = 0; i < base.size(); ++i)
            e[i][j] = base[i] != 0 ? (p[i] - base[i]) / base[i] / rel : nan;
    }
    return e;
}

std::vector<double> key_spread(const std::vector<std::vector<double>>& elasticity,
                               const std::vector<target>& targets) {
    const size_t k = elasticity.empty() ? 0 : elasticity[0].size();
    std::vector<double> out(k, nan);
    // Columns of the inverse of A = J^T W J, one unit vector at a time.
    matrix a(k, std::vector<double>(k));
    for (size_t p = 0; p < k; ++p)
        for (size_t q = 0; q < k; ++q)
            for (size_t i = 0; i < elasticity.size(); ++i) {
                const double w = 1.0 / (targets[i].tolerance * targets[i].tolerance);
                a[p][q] += elasticity[i][p] * elasticity[i][q] * w;
            }
    for (size_t j = 0; j < k; ++j) {
        bool finite = true;
        for (const auto& row : a)
            for (double v : row)
                finite = finite && std::isfinite(v);
        std::vector<double> unit(k, 0), col;
        unit[j] = 1;
        if (finite && solve(a, unit, col) && col[j] > 0)
            out[j] = std::sqrt(col[j]);
    }
    return out;
}

} // namespace nicsim::calibrate
