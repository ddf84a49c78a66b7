// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * tempo-demo's latency histogram: one series per run and compositor, its
 * line style chosen by the run and the compositor's Role, never by a name.
 * A colour per run (OFF red, ON blue), the VR compositor dark and solid,
 * the system compositor light and dashed. Header-only, so that the tools'
 * unit tests check it without a device.
 */
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "compositor.hpp"
#include "tempo-tooling/plot.hpp"

namespace tempo::demo {

/// The line of a series.
struct SeriesStyle {
    const char* color;
    bool dashed;
};

/// The line of @role's series in the @run-th run (0: OFF, 1: ON; a later
/// run is drawn as ON).
inline SeriesStyle series_style(std::size_t run, Role role)
{
    // Per run: the VR compositor's colour, the system compositor's.
    static constexpr const char* colors[][2] = {{"#d62728", "#ff9896"}, {"#1f77b4", "#aec7e8"}};
    const bool vr = role == Role::VrCompositor;
    return {colors[std::min<std::size_t>(run, 1)][vr ? 0 : 1], !vr};
}

/// The histogram of the compositors' frame latencies in @runs.
inline plot::Figure histogram_figure(const std::vector<ScenarioRun>& runs,
                                     const std::string& subtitle)
{
    plot::Figure figure;
    figure.title = "tempo-demo: compositor frame latency (submit to fence signalled)";
    figure.subtitle = subtitle;
    figure.kind = plot::Kind::Histogram;
    for (std::size_t i = 0; i < runs.size(); i++) {
        for (const ProcessRun& p : runs[i].processes) {
            if (p.latency_us.empty())
                continue;
            const SeriesStyle style = series_style(i, p.role);
            figure.series.push_back(
                {.label = runs[i].name + ": " + role_name(p.role) + " at " + to_string(p.priority),
                 .values_us = p.latency_us,
                 .color = style.color,
                 .dashed = style.dashed,
                 .notes = {std::to_string(p.missed) + " of " + std::to_string(p.frames) +
                           " frames missed the deadline"}});
        }
    }
    figure.markers.push_back({.x_us = static_cast<double>(vr_period.count()) / 1000.0,
                              .label = "VR deadline: next vblank at 90 Hz"});
    return figure;
}

/// Writes the latency histogram of the compositors of @runs as data and a
/// gnuplot script named after @path (plot::write_plot()); returns the files.
inline plot::Files write_histogram(const std::string& path, const std::vector<ScenarioRun>& runs,
                                   const std::string& subtitle)
{
    return plot::write_plot(path, histogram_figure(runs, subtitle));
}

} // namespace tempo::demo
