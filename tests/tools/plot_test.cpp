// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * tempo-tooling's plots: the data file, the gnuplot script, the file names
 * and where they are written; with gnuplot installed, that the script
 * draws an SVG picture.
 */
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <unistd.h>

#include "run_command.hpp"
#include "temp_dir.hpp"
#include "tempo-tooling/plot.hpp"

namespace {

namespace fs = std::filesystem;
using namespace tempo::plot;

Figure figure(Kind kind)
{
    Figure f;
    f.title = "latency";
    f.subtitle = "two series";
    f.kind = kind;
    f.series.push_back({.label = "idle", .values_us = {30, 10, 20, 40}, .color = "#1f77b4"});
    f.series.push_back({.label = "load \"x\"",
                        .values_us = {150, 1500},
                        .color = "#d62728",
                        .dashed = true,
                        .notes = {"1 of 2 missed"}});
    return f;
}

TEST(Plot, CdfDataHasEverySampleSortedWithItsShare)
{
    const std::string data = data_text(figure(Kind::Cdf));
    EXPECT_NE(data.find("# index 0: idle\n"
                        "10.000 25.000\n20.000 50.000\n30.000 75.000\n40.000 100.000\n"
                        "\n\n# index 1: load \"x\"\n150.000 50.000\n1500.000 100.000\n"),
              std::string::npos)
        << data;
}

TEST(Plot, HistogramDataHasEveryBinOfTheAxis)
{
    Figure f = figure(Kind::Histogram);
    f.bins_per_decade = 1;
    const std::string data = data_text(f);
    // The axis spans 10 us .. 10 ms: three bins, and the end of the last.
    EXPECT_NE(data.find("# index 0: idle\n10.000 100.000\n100.000 0.000\n1000.000 0.000\n"
                        "10000.000 0.000\n"),
              std::string::npos)
        << data;
    EXPECT_NE(data.find("# index 1: load \"x\"\n10.000 0.000\n100.000 50.000\n1000.000 50.000\n"
                        "10000.000 50.000\n"),
              std::string::npos)
        << data;
}

TEST(Plot, ScriptDrawsEverySeriesWithItsLegend)
{
    Figure f = figure(Kind::Cdf);
    f.markers.push_back({.x_us = 11111, .label = "deadline"});
    const std::string script = gnuplot_script(f, "lat.dat", "lat.svg");
    for (const char* line :
         {"set terminal svg", "set output \"lat.svg\"", "set logscale x", "set xrange [1e1:1e5]",
          "\"10 \xc2\xb5s\" 1e1", "\"100 ms\" 1e5", "set yrange [0:100]",
          "set arrow from 11111, graph 0", "set label \"deadline\"",
          "plot \"lat.dat\" index 0 using 1:2 with steps lw 2 lc rgb \"#1f77b4\" dt 1 title "
          "\"idle\\np50 20 \xc2\xb5s, p99 40 \xc2\xb5s, max 40 \xc2\xb5s\"",
          "\"lat.dat\" index 1 using 1:2 with steps lw 2 lc rgb \"#d62728\" dt (6, 4) title "
          "\"load \\\"x\\\"\\n1 of 2 missed\\np50 150 \xc2\xb5s, p99 1.5 ms, max 1.5 ms\""})
        EXPECT_NE(script.find(line), std::string::npos) << line << "\nin:\n" << script;
}

TEST(Plot, FileNamesDropTheirSuffix)
{
    for (const char* path : {"out/lat", "out/lat.svg", "out/lat.gp", "out/lat.dat"}) {
        const Files f = files_of(path);
        EXPECT_EQ(f.data, "out/lat.dat") << path;
        EXPECT_EQ(f.script, "out/lat.gp") << path;
        EXPECT_EQ(f.picture, "out/lat.svg") << path;
    }
}

using tempo_test::TempDir;

TEST(Plot, UnwritablePathFallsBackToTempoOut)
{
    const TempDir out;
    ::setenv("TEMPO_OUT", out.path().c_str(), 1);
    const Files f = write_plot("/nonexistent/dir/lat.svg", figure(Kind::Cdf));
    ::unsetenv("TEMPO_OUT");
    EXPECT_EQ(f.data, (out.path() / "lat.dat").string());
    EXPECT_TRUE(fs::exists(out.path() / "lat.dat"));
    EXPECT_TRUE(fs::exists(out.path() / "lat.gp"));
    EXPECT_THROW(write_plot("/nonexistent/dir/lat.svg", figure(Kind::Cdf)), std::runtime_error);
}

TEST(Plot, GnuplotDrawsTheScript)
{
    if (tempo_test::run_command("command -v gnuplot").first != 0)
        GTEST_SKIP() << "gnuplot is not installed";
    const TempDir dir;
    for (const Kind kind : {Kind::Cdf, Kind::Histogram}) {
        const Files f = write_plot((dir.path() / "lat").string(), figure(kind));
        const auto [status, out] =
            tempo_test::run_command("cd " + dir.path().string() + " && gnuplot lat.gp 2>&1");
        EXPECT_EQ(status, 0) << out;
        std::ifstream svg(f.picture);
        std::stringstream text;
        text << svg.rdbuf();
        EXPECT_NE(text.str().find("<svg"), std::string::npos);
        EXPECT_NE(text.str().find("1 of 2 missed"), std::string::npos);
    }
}

} // namespace
