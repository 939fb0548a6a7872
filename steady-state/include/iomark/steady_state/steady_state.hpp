// Whether a device has reached steady state, by the rule of SNIA's Solid State Storage
// Performance Test Specification (PTS-E and PTS-C): a new drive, or one just written to, is
// fast at first and slows as it fills and its garbage collection starts, so a figure is worth
// reporting only once the rounds that measure it stop moving.
//
// The rule looks at the last `window` rounds (5 by default), y_0 .. y_{w-1}, one figure per
// round (IOPS, MB/s, a latency; whatever the caller measures per round), and asks two things
// of them, both against the window's average ȳ:
//   - data excursion: max(y) - min(y) <= 20% of ȳ, so no round is further than 20% from
//     the average;
//   - slope excursion: the least-squares line y = a + b·x over x = 0 .. w-1 (the rounds of
//     the window) moves by at most 10% of ȳ across the window: |b|·(w-1) <= 10% of ȳ, with
//     b = Σ(x - x̄)(y - ȳ) / Σ(x - x̄)² and a = ȳ - b·x̄.
// Both limits are inclusive. Fewer rounds than the window is not steady yet. An average of 0
// or less (a device doing nothing) is never steady, nor is a window holding a round that is
// not a finite number; the verdict then says why, and none of its figures is NaN or infinite.
//
// Pure functions of their arguments: no I/O, no logging, no state; safe from any thread.
#pragma once

#include <cstddef>
#include <span>
#include <string>

#include "iomark/common/result.hpp"

namespace iomark::steady_state {

// The rule's parameters; the defaults are SNIA's. `checked_rule` makes one from values a user
// typed; `judge` refuses (not steady, naming the field) a rule that `checked_rule` would.
struct Rule {
  std::size_t window{5};             // rounds judged, the last ones; at least 2 (a line needs two points)
  double max_data_excursion{0.20};   // max - min, as a fraction of the window's average; in (0, 1]
  double max_slope_excursion{0.10};  // |slope|·(window - 1), as a fraction of the window's average; in (0, 1]
};

// What `judge` found over the window. With fewer rounds than the window the figures describe
// the rounds there are (for a console to show progress), but the series is not steady.
struct Verdict {
  bool steady{false};
  std::size_t window_first{};   // index of the window's first round (0 with fewer rounds than the window)
  std::size_t window_rounds{};  // rounds in the window: min(rounds, window)
  double average{};
  double minimum{};
  double maximum{};
  double slope{};            // b, in the rounds' unit per round; 0 with fewer than 2 rounds
  double intercept{};        // a, the line's value at the window's first round
  double data_excursion{};   // (maximum - minimum) / average; 0 when average <= 0
  double slope_excursion{};  // |slope|·(window_rounds - 1) / average; 0 when average <= 0
  // Empty when steady; otherwise why not, in words a console can print, e.g.
  // "range 31.2% of the average (limit 20%)"; several reasons are joined by "; ".
  std::string reason{};
};

// A rule from values a user gave: invalid_argument, its field "window", "data excursion" or
// "slope excursion", for a window below 2 or an excursion outside (0, 1] (NaN included).
[[nodiscard]] Result<Rule> checked_rule(std::size_t window, double max_data_excursion, double max_slope_excursion);

// Judges the last `rule.window` rounds of `rounds` (oldest first). Never fails: a bad rule or
// bad rounds give a verdict that is not steady and says why.
[[nodiscard]] Verdict judge(std::span<const double> rounds, const Rule& rule = {});

// How many rounds it took to become steady: the smallest n >= rule.window for which
// judge(the first n rounds) is steady, or 0 if no prefix is. A falling device must not be
// declared steady before it has fallen: this says at which round it would have been.
[[nodiscard]] std::size_t first_steady_round(std::span<const double> rounds, const Rule& rule = {});

}  // namespace iomark::steady_state
