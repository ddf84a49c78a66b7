// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * tempo-tooling's plots: the data file, the gnuplot script, the file names
 * and where they are written, the layout (a line style per series, legend
 * entries as tall as their text, the title's margin); with gnuplot
 * installed, that the script draws an SVG picture whose texts do not
 * overlap and whose title is centred on it.
 */
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

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
          // The tics at 99 and 100 would be written over each other.
          "set ytics (0, 25, 50, 75, 90, 99, \"\" 100)\n", "set arrow from 11111, graph 0",
          "set label \"deadline\"", "set style line 1 lw 2 lc rgb \"#1f77b4\" dt 1\n",
          "set style line 2 lw 2 lc rgb \"#d62728\" dt (12, 6)\n",
          "plot \"lat.dat\" index 0 using 1:2 with steps ls 1 title "
          "\"idle\\np50 20 \xc2\xb5s, p99 40 \xc2\xb5s, max 40 \xc2\xb5s\"",
          "\"lat.dat\" index 1 using 1:2 with steps ls 2 title "
          "\"load \\\"x\\\"\\n1 of 2 missed\\np50 150 \xc2\xb5s, p99 1.5 ms, max 1.5 ms\""})
        EXPECT_NE(script.find(line), std::string::npos) << line << "\nin:\n" << script;
}

/// The number after @word on the line of @script that starts with @line.
double setting(const std::string& script, const std::string& line, const std::string& word)
{
    std::istringstream lines(script);
    for (std::string l; std::getline(lines, l);) {
        if (!l.starts_with(line))
            continue;
        std::istringstream words(l);
        for (std::string w; words >> w;)
            if (w == word && words >> w)
                return std::stod(w);
    }
    ADD_FAILURE() << "no \"" << word << "\" on a line \"" << line << "\" in:\n" << script;
    return NAN;
}

/// Each line style of @script: its number, colour and dash.
std::vector<std::tuple<int, std::string, std::string>> line_styles(const std::string& script)
{
    static const std::regex style(R"re(set style line (\d+) lw 2 lc rgb "([^"]*)" dt (.*))re");
    std::vector<std::tuple<int, std::string, std::string>> styles;
    std::istringstream lines(script);
    std::smatch m;
    for (std::string l; std::getline(lines, l);)
        if (std::regex_match(l, m, style))
            styles.emplace_back(std::stoi(m[1]), m[2], m[3]);
    return styles;
}

TEST(Plot, EverySeriesHasALineStyleOfItsOwn)
{
    Figure f = figure(Kind::Histogram);
    // The same colour and dash as "idle": told apart all the same.
    f.series.push_back({.label = "twin", .values_us = {25}, .color = "#1f77b4"});
    f.series.push_back({.label = "twin 2", .values_us = {35}, .color = "#1f77b4"});
    const std::string script = gnuplot_script(f, "lat.dat", "lat.svg");
    const auto styles = line_styles(script);
    ASSERT_EQ(styles.size(), f.series.size()) << script;
    std::set<std::pair<std::string, std::string>> looks;
    for (std::size_t i = 0; i < styles.size(); i++) {
        const auto& [number, color, dash] = styles[i];
        EXPECT_EQ(number, static_cast<int>(i) + 1);
        EXPECT_TRUE(looks.emplace(color, dash).second)
            << "series " << i << " looks like an earlier one:\n"
            << script;
        EXPECT_NE(script.find("\"lat.dat\" index " + std::to_string(i) +
                              " using 1:2 with steps ls " + std::to_string(i + 1) + " "),
                  std::string::npos)
            << script;
    }
    // The series that asked for a colour of their own keep it.
    EXPECT_EQ(std::get<1>(styles[0]), "#1f77b4");
    EXPECT_EQ(std::get<1>(styles[1]), "#d62728");
    EXPECT_EQ(std::get<2>(styles[1]), "(12, 6)");
}

TEST(Plot, LegendEntriesAreAsTallAsTheLongestAndApart)
{
    Figure f = figure(Kind::Cdf);
    // "load": its label, a note and the percentiles.
    std::string script = gnuplot_script(f, "lat.dat", "lat.svg");
    EXPECT_NE(script.find("set key below "), std::string::npos) << script;
    EXPECT_GE(setting(script, "set key", "spacing"), 3.5);
    f.series[0].notes = {"a", "b", "c"};
    script = gnuplot_script(f, "lat.dat", "lat.svg");
    EXPECT_GE(setting(script, "set key", "spacing"), 5.5);
}

TEST(Plot, PictureGrowsWithItsLegend)
{
    Figure f = figure(Kind::Cdf);
    const std::string two = gnuplot_script(f, "lat.dat", "lat.svg");
    for (int i = 0; i < 8; i++)
        f.series.push_back(f.series[1]);
    const std::string ten = gnuplot_script(f, "lat.dat", "lat.svg");
    const auto height = [](const std::string& script) {
        const std::size_t at = script.find("set terminal svg size ");
        return std::stoi(script.substr(script.find(',', at) + 1));
    };
    // Four more rows of two entries of three lines.
    EXPECT_GE(height(ten) - height(two), 4 * 3 * 18) << two << ten;
}

TEST(Plot, TitleHasItsMarginAndFitsThePicture)
{
    Figure f = figure(Kind::Cdf);
    f.subtitle.clear();
    for (int i = 0; i < 40; i++)
        f.subtitle += "word" + std::to_string(i) + " ";
    const std::string script = gnuplot_script(f, "lat.dat", "lat.svg");
    // "latency" and the subtitle's lines of at most 100 characters.
    const std::size_t start = script.find("set title \"");
    ASSERT_NE(start, std::string::npos) << script;
    const std::string title = script.substr(start, script.find('\n', start) - start);
    std::size_t lines = 1;
    for (std::size_t at = 0, next; (next = title.find("\\n", at)) != std::string::npos;
         at = next + 2, lines++)
        EXPECT_LE(next - at, 100U) << title;
    EXPECT_GE(lines, 3U) << title;
    EXPECT_GE(setting(script, "set tmargin", "tmargin"), static_cast<double>(lines + 1)) << script;
    // The graph in the middle, its title with it.
    EXPECT_EQ(setting(script, "set lmargin", "lmargin"), setting(script, "set rmargin", "rmargin"));
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

/// A text of an SVG picture gnuplot drew: where it starts (its baseline).
struct SvgText {
    double x{0};
    double y{0};
    std::string text;
};

/// The texts of @svg: gnuplot writes each as a <g transform="translate(x,y)" ...>
/// line and a <text> line.
std::vector<SvgText> svg_texts(const std::string& svg)
{
    static const std::regex at(R"(translate\(([0-9.]+),([0-9.]+)\))");
    static const std::regex text(R"(<text>([^<]*)</text>)");
    std::vector<SvgText> texts;
    std::istringstream lines(svg);
    std::smatch m;
    SvgText last;
    for (std::string l; std::getline(lines, l);) {
        if (std::regex_search(l, m, at)) {
            last = {std::stod(m[1]), std::stod(m[2]), ""};
        } else if (std::regex_search(l, m, text)) {
            last.text = m[1];
            texts.push_back(last);
        }
    }
    return texts;
}

TEST(Plot, GnuplotDrawsLegendAndTitleApartInsideThePicture)
{
    if (tempo_test::run_command("command -v gnuplot").first != 0)
        GTEST_SKIP() << "gnuplot is not installed";
    Figure f;
    f.title = "four series, three lines of legend each";
    f.subtitle.clear();
    for (int i = 0; i < 30; i++)
        f.subtitle += "subtitle" + std::to_string(i) + " ";
    f.kind = Kind::Histogram;
    for (const char* run : {"OFF", "ON"})
        for (const char* process : {"system-compositor", "vr-compositor"})
            f.series.push_back({.label = std::string{run} + ": " + process + " at normal",
                                .values_us = {900, 9000, 12000, 40000},
                                .color = "#1f77b4",
                                .notes = {"1 of 4 frames missed the deadline"}});
    const TempDir dir;
    const Files files = write_plot((dir.path() / "lat").string(), f);
    const auto [status, out] =
        tempo_test::run_command("cd " + dir.path().string() + " && gnuplot lat.gp 2>&1");
    ASSERT_EQ(status, 0) << out;
    std::ifstream in(files.picture);
    std::stringstream svg;
    svg << in.rdbuf();
    const std::vector<SvgText> texts = svg_texts(svg.str());
    ASSERT_FALSE(texts.empty()) << svg.str();
    std::ifstream script_file(files.script);
    std::stringstream script;
    script << script_file.rdbuf();
    const auto size = script.str().find("set terminal svg size ");
    const double width = std::stod(script.str().substr(size + 22));
    const double height = std::stod(script.str().substr(script.str().find(',', size) + 1));
    // Two texts in one column are at least a line of the 12 pt font apart.
    for (std::size_t i = 0; i < texts.size(); i++) {
        EXPECT_GE(texts[i].y, 12.0) << texts[i].text;
        EXPECT_LE(texts[i].y, height) << texts[i].text;
        for (std::size_t j = i + 1; j < texts.size(); j++)
            if (std::abs(texts[i].x - texts[j].x) < 1) {
                EXPECT_GE(std::abs(texts[i].y - texts[j].y), 14.0)
                    << "\"" << texts[i].text << "\" overlaps \"" << texts[j].text << "\"";
            }
    }
    // The title's lines are centred on the picture.
    std::size_t title_lines = 0;
    for (const SvgText& t : texts)
        if (t.text.starts_with("four series") || t.text.starts_with("subtitle")) {
            EXPECT_NEAR(t.x, width / 2, 2.0) << t.text;
            title_lines++;
        }
    EXPECT_GE(title_lines, 2U);
}

} // namespace
