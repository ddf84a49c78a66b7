// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * Latency pictures as data plus a gnuplot script: a cumulative distribution
 * (tempo-bench latency --hist) or a histogram (tempo-demo), on a
 * logarithmic time axis, one series per measured case, with a legend that
 * gives each series' percentiles and optional vertical markers (a
 * deadline). The tools write NAME.dat (the data, one block per series) and
 * NAME.gp; "gnuplot NAME.gp", run in their directory, draws NAME.svg.
 *
 * The layout: the title centred on the picture, above the graph in a top
 * margin of its own; the legend under the graph, two entries to a row,
 * each entry as tall as the longest one (gnuplot gives a legend entry one
 * line, whatever the lines of its text); each series in a line style of
 * its own.
 */
#pragma once

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tempo-tooling/stats.hpp"

namespace tempo::plot {

/// One set of samples, in microseconds.
struct Series {
    std::string label;
    std::vector<double> values_us;
    /// "#rrggbb". Of two series of the same colour and dash, the later one
    /// is drawn in the first colour of the palette that no series has.
    std::string color;
    bool dashed = false;
    /// Lines under the label in the legend, before the percentiles.
    std::vector<std::string> notes = {};
};

/// A vertical line at @x_us, labelled.
struct Marker {
    double x_us{0};
    std::string label;
};

enum class Kind {
    /// Share of the samples at or below each latency.
    Cdf,
    /// Share of the samples in each bin of equal width on the log scale.
    Histogram,
};

/// What a picture shows.
struct Figure {
    std::string title;
    std::string subtitle;
    Kind kind{Kind::Cdf};
    std::vector<Series> series;
    std::vector<Marker> markers;
    int bins_per_decade{10};
};

/// The files of one picture.
struct Files {
    std::string data;
    std::string script;
    /// What the script draws.
    std::string picture;
};

/// The colours that tell a series from an earlier one of the same colour
/// and dash.
inline constexpr const char* palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                          "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"};

/// The picture's size and the room around its graph. Widths in pixels,
/// margins in characters of its font.
namespace layout {
inline constexpr int width = 1100;
/// Title, graph and x axis; the legend's rows add to it.
inline constexpr int height = 560;
inline constexpr int font_pt = 12;
/// What one line of text takes, in pixels, at font_pt.
inline constexpr int line_px = 18;
/// The subtitle's lines, at most: a line of 100 characters of DejaVu Sans
/// at 12 pt is about 850 pixels, inside the picture when centred on it.
inline constexpr std::size_t title_chars = 100;
/// Left and right of the graph alike, so that the title, centred on the
/// graph, is centred on the picture. The left one holds the y axis' label
/// and tics; the right one the last x tic.
inline constexpr int side_margin = 12;
/// The graph's width in characters, as gnuplot's SVG terminal counts them
/// (8.4 pixels at 12 pt).
inline constexpr std::size_t graph_chars = 130 - 2 * side_margin;
/// Legend entries per row, at most: two when they fit under the graph.
inline constexpr std::size_t key_columns = 2;
/// A legend entry's width besides its text, in characters: its sample line
/// (samplen) and the room gnuplot leaves around it.
inline constexpr int key_sample = 5;
inline constexpr std::size_t key_extra = key_sample + 6;
/// Between two legend entries, in lines.
inline constexpr double key_gap = 0.8;
} // namespace layout

namespace detail {

/// The decades [first, last] of the time axis, every sample and marker inside.
inline std::pair<int, int> decades(const Figure& figure)
{
    double lo = std::numeric_limits<double>::infinity();
    double hi = -lo;
    for (const Series& s : figure.series)
        for (const double v : s.values_us) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    for (const Marker& m : figure.markers) {
        lo = std::min(lo, m.x_us);
        hi = std::max(hi, m.x_us);
    }
    if (lo > hi)
        return {0, 1};
    const int first = static_cast<int>(std::floor(std::log10(std::max(lo, 1e-3))));
    const int last = static_cast<int>(std::ceil(std::log10(std::max(hi, 1e-3))));
    return {first, std::max(last, first + 1)};
}

/// The sorted samples, each with the percentage of samples at or below it.
inline void cdf_rows(std::ostream& out, std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    const double n = static_cast<double>(values.size());
    for (std::size_t i = 0; i < values.size(); i++)
        out << values[i] << ' ' << 100.0 * static_cast<double>(i + 1) / n << '\n';
}

/// Each bin's lower edge and the percentage of the samples in it; a last
/// row at the upper edge of the last bin closes it.
inline void histogram_rows(std::ostream& out, const std::vector<double>& values,
                           std::pair<int, int> decades, int per_decade)
{
    const int bins = (decades.second - decades.first) * per_decade;
    std::vector<double> percent(static_cast<std::size_t>(bins), 0.0);
    for (const double v : values) {
        const double pos = (std::log10(std::max(v, 1e-3)) - decades.first) * per_decade;
        const int bin = std::clamp(static_cast<int>(std::floor(pos)), 0, bins - 1);
        percent[static_cast<std::size_t>(bin)] += 100.0 / static_cast<double>(values.size());
    }
    const auto edge = [&](int b) {
        return std::pow(10.0, decades.first + static_cast<double>(b) / per_decade);
    };
    for (int b = 0; b < bins; b++)
        out << edge(b) << ' ' << percent[static_cast<std::size_t>(b)] << '\n';
    out << edge(bins) << ' ' << (percent.empty() ? 0.0 : percent.back()) << '\n';
}

/// @text as a gnuplot string in double quotes ("\n" starts a new line).
inline std::string gp_string(std::string_view text)
{
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c == '\n' ? std::string{"\\n"} : std::string(1, c);
    }
    return out + "\"";
}

/// "10 µs", "1 ms", "100 ms", "1 s" for a power of ten of microseconds.
inline std::string decade_label(int decade)
{
    static constexpr const char* units[] = {"\xc2\xb5s", "ms", "s"};
    if (decade < 0)
        return "1e" + std::to_string(decade) + " \xc2\xb5s";
    const int unit = std::min(decade / 3, 2);
    long long value = 1;
    for (int i = 0; i < decade - 3 * unit; i++)
        value *= 10;
    return std::to_string(value) + " " + units[unit];
}

/// "p50 120 µs, p99 3.1 ms, max 10.7 ms", or "no samples".
inline std::string percentiles(std::vector<double> values)
{
    if (values.empty())
        return "no samples";
    std::sort(values.begin(), values.end());
    const auto fmt = [](double us) {
        char buf[32];
        if (us >= 1000)
            std::snprintf(buf, sizeof(buf), "%.1f ms", us / 1000);
        else
            std::snprintf(buf, sizeof(buf), "%.0f \xc2\xb5s", us);
        return std::string{buf};
    };
    return "p50 " + fmt(tooling::percentile(values, 50)) + ", p99 " +
           fmt(tooling::percentile(values, 99)) + ", max " + fmt(values.back());
}

/// @text broken into lines of about @width characters, at spaces.
inline std::string wrap(const std::string& text, std::size_t width)
{
    std::string out;
    std::size_t line = 0;
    std::istringstream words(text);
    for (std::string word; words >> word;) {
        if (line && line + 1 + word.size() > width) {
            out += '\n';
            line = 0;
        } else if (line) {
            out += ' ';
            line++;
        }
        out += word;
        line += word.size();
    }
    return out;
}

inline std::string legend(const Series& s)
{
    std::string text = s.label;
    for (const std::string& note : s.notes)
        text += "\n" + note;
    return text + "\n" + percentiles(s.values_us);
}

/// The lines of @text.
inline std::size_t lines(std::string_view text)
{
    return 1 + static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

inline std::string title(const Figure& figure)
{
    return figure.subtitle.empty()
               ? figure.title
               : figure.title + "\n" + wrap(figure.subtitle, layout::title_chars);
}

/// The legend's spacing, in lines: an entry as tall as the longest, and a gap.
inline double key_spacing(const Figure& figure)
{
    std::size_t most = 1;
    for (const Series& s : figure.series)
        most = std::max(most, lines(legend(s)));
    return static_cast<double>(most) + layout::key_gap;
}

/// The characters of the longest line of @text (UTF-8).
inline std::size_t longest_line(std::string_view text)
{
    std::size_t longest = 0, line = 0;
    for (const char c : text) {
        if (c == '\n')
            line = 0;
        else if ((static_cast<unsigned char>(c) & 0xc0) != 0x80)
            line++;
        longest = std::max(longest, line);
    }
    return longest;
}

/// The legend's entries per row: as many as fit under the graph, up to
/// layout::key_columns (gnuplot makes fewer columns of wider entries).
inline std::size_t key_columns(const Figure& figure)
{
    std::size_t widest = 0;
    for (const Series& s : figure.series)
        widest = std::max(widest, longest_line(legend(s)) + layout::key_extra);
    const std::size_t fit = layout::graph_chars / std::max<std::size_t>(widest, 1);
    return std::clamp<std::size_t>(fit, 1, layout::key_columns);
}

/// The picture's height: the graph's, and the legend's rows under it.
inline int picture_height(const Figure& figure)
{
    const std::size_t columns = key_columns(figure);
    const std::size_t rows = (figure.series.size() + columns - 1) / columns;
    // And a free line under the legend.
    return layout::height +
           static_cast<int>(
               std::ceil((static_cast<double>(rows) * key_spacing(figure) + 1) * layout::line_px));
}

/// One line style per series: its colour and dash.
struct LineStyle {
    std::string color;
    bool dashed{false};
    friend bool operator==(const LineStyle&, const LineStyle&) = default;
};

/// The series' styles, each one different from the others: a series whose
/// colour and dash an earlier one has gets the first colour of the palette
/// that no series has.
inline std::vector<LineStyle> line_styles(const std::vector<Series>& series)
{
    std::vector<LineStyle> styles;
    const auto used = [&](std::string_view color) {
        return std::any_of(series.begin(), series.end(),
                           [&](const Series& s) { return s.color == color; }) ||
               std::any_of(styles.begin(), styles.end(),
                           [&](const LineStyle& l) { return l.color == color; });
    };
    for (const Series& s : series) {
        LineStyle style{s.color, s.dashed};
        if (std::find(styles.begin(), styles.end(), style) != styles.end()) {
            const auto* free = std::find_if(std::begin(palette), std::end(palette),
                                            [&](const char* c) { return !used(c); });
            // More series than colours: around the palette again.
            style.color =
                free != std::end(palette) ? *free : palette[styles.size() % std::size(palette)];
            if (std::find(styles.begin(), styles.end(), style) != styles.end())
                style.dashed = !style.dashed;
        }
        styles.push_back(style);
    }
    return styles;
}

/// The axes, the title, the legend's place and the markers.
inline void script_frame(std::ostream& out, const Figure& figure, std::pair<int, int> decades)
{
    const bool cdf = figure.kind == Kind::Cdf;
    const std::string heading = title(figure);
    // Above the graph: the title's lines, and a free line above and under them.
    out << "set title " << gp_string(heading) << "\n"
        << "set tmargin " << lines(heading) + 2 << "\n"
        << "set lmargin " << layout::side_margin << "\n"
        << "set rmargin " << layout::side_margin << "\n"
        << "set logscale x\n"
        << "set xrange [1e" << decades.first << ":1e" << decades.second << "]\n"
        << "set xtics (";
    for (int d = decades.first; d <= decades.second; d++)
        out << (d == decades.first ? "" : ", ") << gp_string(decade_label(d)) << " 1e" << d;
    out << ")\nset mxtics 10\n"
        << "set grid xtics mxtics ytics lc rgb \"#dddddd\"\n"
        << "set xlabel \"latency (log scale)\"\n"
        << "set ylabel " << gp_string(cdf ? "samples at or below (%)" : "samples in bin (%)")
        << "\n"
        // 99 and 100 are a few pixels apart: the top of the graph goes unlabelled.
        << (cdf ? "set yrange [0:100]\nset ytics (0, 25, 50, 75, 90, 99, \"\" 100)\n"
                : "set yrange [0:*]\n")
        << "set key below center horizontal Left reverse maxcols " << key_columns(figure)
        << " samplen " << layout::key_sample << " spacing " << key_spacing(figure) << "\n";
    for (const Marker& m : figure.markers)
        out << "set arrow from " << m.x_us << ", graph 0 to " << m.x_us
            << ", graph 1 nohead dt 3 lw 1.5 lc rgb \"black\"\n"
            << "set label " << gp_string(m.label) << " at " << m.x_us
            << ", graph 0.97 offset character 0.5, 0\n";
}

} // namespace detail

/// The data of @figure: per series (gnuplot's "index" N, blocks two blank
/// lines apart) the rows the picture draws, as the header comment says.
inline std::string data_text(const Figure& figure)
{
    const auto decades = detail::decades(figure);
    std::ostringstream out;
    out << std::fixed << std::setprecision(3) << "# " << figure.title << "\n"
        << (figure.kind == Kind::Cdf
                ? "# columns: latency_us percent_of_samples_at_or_below (every sample)\n"
                : "# columns: bin_from_us percent_of_samples_in_bin (last row: end of the last "
                  "bin)\n");
    for (std::size_t i = 0; i < figure.series.size(); i++) {
        const Series& s = figure.series[i];
        out << (i ? "\n\n" : "") << "# index " << i << ": " << s.label << "\n";
        if (figure.kind == Kind::Cdf)
            detail::cdf_rows(out, s.values_us);
        else
            detail::histogram_rows(out, s.values_us, decades, figure.bins_per_decade);
    }
    return out.str();
}

/// The gnuplot script that draws @data (a file name) into @picture (SVG).
inline std::string gnuplot_script(const Figure& figure, std::string_view data,
                                  std::string_view picture)
{
    std::ostringstream out;
    out << "# Draws " << data << " into " << picture << ": gnuplot "
        << std::filesystem::path(picture).replace_extension(".gp").string() << "\n"
        << "set terminal svg size " << layout::width << "," << detail::picture_height(figure)
        << " dynamic font \"DejaVu Sans," << layout::font_pt << "\" noenhanced\n"
        << "set encoding utf8\n"
        << "set output " << detail::gp_string(picture) << "\n";
    detail::script_frame(out, figure, detail::decades(figure));
    const auto styles = detail::line_styles(figure.series);
    for (std::size_t i = 0; i < styles.size(); i++)
        out << "set style line " << i + 1 << " lw 2 lc rgb " << detail::gp_string(styles[i].color)
            << " dt " << (styles[i].dashed ? "(12, 6)" : "1") << "\n";
    for (std::size_t i = 0; i < figure.series.size(); i++) {
        const Series& s = figure.series[i];
        out << (i ? ", \\\n     " : "plot ") << detail::gp_string(data) << " index " << i
            << " using 1:2 with steps ls " << i + 1 << " title "
            << detail::gp_string(detail::legend(s));
    }
    out << "\n";
    return out.str();
}

/// The files of the picture named @path: "x.svg", "x.gp", "x.dat" and "x"
/// all name x.dat, x.gp and x.svg.
inline Files files_of(std::string path)
{
    for (const std::string_view suffix : {".svg", ".gp", ".dat"})
        if (path.size() > suffix.size() && path.ends_with(suffix)) {
            path.resize(path.size() - suffix.size());
            break;
        }
    return {path + ".dat", path + ".gp", path + ".svg"};
}

namespace detail {

inline bool write_file(const std::string& path, const std::string& text)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    return static_cast<bool>(out);
}

inline std::string file_name(const std::string& path)
{
    return std::filesystem::path(path).filename().string();
}

/// @path with a leading "$TEMPO_OUT" or "${TEMPO_OUT}" replaced by @out_dir.
inline std::string expand_out(std::string path, const std::string& out_dir)
{
    for (const std::string_view var : {"${TEMPO_OUT}", "$TEMPO_OUT"})
        if (!out_dir.empty() && path.starts_with(var))
            return out_dir + path.substr(var.size());
    return path;
}

} // namespace detail

/**
 * Writes the data and the script of @figure, named after @path
 * (files_of()); returns the files. A leading "$TEMPO_OUT" in @path is that
 * variable (for a path quoted on the host, expanded in the VM). When the
 * data cannot be written there and $TEMPO_OUT is set (the one writable
 * directory of the test VM), both files go there under their own names.
 * Throws std::runtime_error when nothing could be written.
 */
inline Files write_plot(const std::string& path, const Figure& figure)
{
    const char* env = std::getenv("TEMPO_OUT");
    const std::string out_dir = env ? env : "";
    Files files = files_of(detail::expand_out(path, out_dir));
    const std::string data = data_text(figure);
    if (!detail::write_file(files.data, data)) {
        const int error = errno;
        const Files moved = files_of(out_dir + "/" + detail::file_name(files.picture));
        if (out_dir.empty() || moved.data == files.data || !detail::write_file(moved.data, data))
            throw std::runtime_error("cannot write " + files.data + ": " + std::strerror(error));
        std::fprintf(stderr, "cannot write %s (%s); writing %s instead\n", files.data.c_str(),
                     std::strerror(error), moved.data.c_str());
        files = moved;
    }
    const std::string script =
        gnuplot_script(figure, detail::file_name(files.data), detail::file_name(files.picture));
    if (!detail::write_file(files.script, script))
        throw std::runtime_error("cannot write " + files.script + ": " + std::strerror(errno));
    return files;
}

} // namespace tempo::plot
