// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * tempo-demo's latency histogram: each compositor of each run in a line
 * style of its own, chosen by its role; the names the output gives the
 * processes, which tests/guest/vr-scenario.sh reads.
 */
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "histogram.hpp"

namespace {

using tempo::Priority;
using namespace tempo::demo;

ProcessRun process(Role role, Priority priority, std::vector<double> latency_us)
{
    ProcessRun p;
    p.role = role;
    p.priority = priority;
    p.frames = latency_us.size();
    p.missed = 1;
    p.latency_us = std::move(latency_us);
    return p;
}

/// The two runs of the demo: the game (no frames), the system and the VR compositor.
std::vector<ScenarioRun> runs()
{
    std::vector<ScenarioRun> runs;
    for (const char* name : {"OFF", "ON"}) {
        ScenarioRun run;
        run.name = name;
        run.processes = {process(Role::Game, Priority::Low, {}),
                         process(Role::SystemCompositor, Priority::Normal, {9000, 17000}),
                         process(Role::VrCompositor,
                                 run.name == "ON" ? Priority::High : Priority::Normal,
                                 {900, 12000})};
        runs.push_back(run);
    }
    return runs;
}

TEST(DemoHistogram, ProcessesKeepTheirNamesInTheOutput)
{
    EXPECT_STREQ(role_name(Role::Game), "game");
    EXPECT_STREQ(role_name(Role::SystemCompositor), "system-compositor");
    EXPECT_STREQ(role_name(Role::VrCompositor), "vr-compositor");
}

TEST(DemoHistogram, EachCompositorOfEachRunHasAStyleOfItsOwn)
{
    std::set<std::pair<std::string, bool>> styles;
    for (std::size_t run = 0; run < 2; run++)
        for (const Role role : {Role::SystemCompositor, Role::VrCompositor}) {
            const SeriesStyle s = series_style(run, role);
            EXPECT_TRUE(styles.emplace(s.color, s.dashed).second) << run << " " << role_name(role);
        }
    // The VR compositor's line is solid, the system compositor's dashed.
    EXPECT_FALSE(series_style(0, Role::VrCompositor).dashed);
    EXPECT_TRUE(series_style(0, Role::SystemCompositor).dashed);
}

TEST(DemoHistogram, DrawsEachCompositorInTheStyleOfItsRole)
{
    const tempo::plot::Figure f = histogram_figure(runs(), "subtitle");
    ASSERT_EQ(f.series.size(), 4U);
    const char* labels[] = {"OFF: system-compositor at normal", "OFF: vr-compositor at normal",
                            "ON: system-compositor at normal", "ON: vr-compositor at high"};
    const Role roles[] = {Role::SystemCompositor, Role::VrCompositor};
    for (std::size_t i = 0; i < f.series.size(); i++) {
        const SeriesStyle s = series_style(i / 2, roles[i % 2]);
        EXPECT_EQ(f.series[i].label, labels[i]);
        EXPECT_EQ(f.series[i].color, s.color) << labels[i];
        EXPECT_EQ(f.series[i].dashed, s.dashed) << labels[i];
    }
    // Four line styles in the script, the colours the demo asked for.
    const std::string script = tempo::plot::gnuplot_script(f, "h.dat", "h.svg");
    for (std::size_t i = 0; i < f.series.size(); i++)
        EXPECT_NE(script.find("set style line " + std::to_string(i + 1) + " lw 2 lc rgb \"" +
                              f.series[i].color + "\" dt " + (f.series[i].dashed ? "(" : "1")),
                  std::string::npos)
            << script;
}

} // namespace
