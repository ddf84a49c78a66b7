// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * Summary statistics of timing samples, for tempo-bench.
 */
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numeric>
#include <vector>

namespace tempo::tooling {

/// Statistics of a set of samples, in the unit of the samples.
struct Summary {
    std::size_t count{0};
    double mean{0};
    double p50{0};
    double p99{0};
    double min{0};
    double max{0};
};

/// Nearest-rank percentile @p (0..100] of sorted @samples.
inline double percentile(const std::vector<double>& sorted, double p)
{
    if (sorted.empty())
        return 0;
    const auto rank =
        static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(sorted.size())));
    return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1];
}

inline Summary summarize(std::vector<double> samples)
{
    Summary s;
    s.count = samples.size();
    if (samples.empty())
        return s;
    std::sort(samples.begin(), samples.end());
    s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(s.count);
    s.p50 = percentile(samples, 50);
    s.p99 = percentile(samples, 99);
    s.min = samples.front();
    s.max = samples.back();
    return s;
}

} // namespace tempo::tooling
