// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * Latency pictures as SVG text, without any library: a cumulative
 * distribution (tempo-bench latency --hist) or a histogram (tempo-demo),
 * both on a logarithmic time axis, one series per measured case, with
 * axis labels, a legend and optional vertical markers (a deadline).
 *
 * Header-only, shared by tempo-bench and tempo-demo.
 */
#pragma once

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace tempo::plot {

/// One set of samples, in microseconds.
struct Series {
    std::string label;
    std::vector<double> values_us;
    std::string color;
    bool dashed = false;
    /// Lines printed under the label in the legend, before the percentiles.
    std::vector<std::string> notes = {};
};

/// A vertical line at @x_us, labelled.
struct Marker {
    double x_us{0};
    std::string label;
};

/// What a picture shows.
struct Figure {
    std::string title;
    std::string subtitle;
    std::vector<Series> series;
    std::vector<Marker> markers;
};

/// Colours that stay distinct for a handful of series.
inline const char* palette(std::size_t i)
{
    static constexpr const char* colors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                             "#9467bd", "#8c564b", "#e377c2", "#17becf"};
    return colors[i % std::size(colors)];
}

namespace detail {

inline std::string escape(std::string_view text)
{
    std::string out;
    for (const char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

inline std::string num(double value)
{
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.1f", value);
    return buf;
}

/// "10 µs", "1 ms", "100 ms", "1 s" for a power of ten of microseconds.
inline std::string decade_label(int decade)
{
    static constexpr const char* units[] = {"\xc2\xb5s", "ms", "s"};
    if (decade < 0)
        return "1e" + std::to_string(decade) + " \xc2\xb5s";
    const int unit = std::min(decade / 3, 2);
    const int exponent = decade - 3 * unit;
    long long value = 1;
    for (int i = 0; i < exponent; i++)
        value *= 10;
    return std::to_string(value) + " " + units[unit];
}

inline std::string summary_note(std::vector<double> values)
{
    if (values.empty())
        return "no samples";
    std::sort(values.begin(), values.end());
    const auto at = [&](double p) {
        const auto rank =
            static_cast<std::size_t>(std::ceil(p * static_cast<double>(values.size())));
        return values[std::clamp<std::size_t>(rank, 1, values.size()) - 1];
    };
    const auto fmt = [](double us) {
        char buf[32];
        if (us >= 1000)
            std::snprintf(buf, sizeof(buf), "%.1f ms", us / 1000);
        else
            std::snprintf(buf, sizeof(buf), "%.0f \xc2\xb5s", us);
        return std::string{buf};
    };
    return "p50 " + fmt(at(0.5)) + ", p99 " + fmt(at(0.99)) + ", max " + fmt(values.back());
}

/// Geometry shared by both kinds of pictures.
class Canvas {
public:
    static constexpr double width = 1100;
    static constexpr double height = 560;
    static constexpr double left = 80;
    static constexpr double right = 680;
    static constexpr double top = 76;
    static constexpr double bottom = 480;

    /// The decades [first, last] of the x axis for samples in [@lo_us, @hi_us].
    static std::pair<int, int> decades(double lo_us, double hi_us)
    {
        const int lo = static_cast<int>(std::floor(std::log10(std::max(lo_us, 1e-3))));
        const int hi = static_cast<int>(std::ceil(std::log10(std::max(hi_us, 1e-3))));
        return {lo, std::max(hi, lo + 1)};
    }

    Canvas(const Figure& figure, double lo_us, double hi_us)
    {
        std::tie(lo_, hi_) = decades(lo_us, hi_us);
        out_ << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
             << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\""
             << height << "\" viewBox=\"0 0 " << width << ' ' << height
             << "\" font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\"13\">\n"
             << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
             << "<text x=\"" << width / 2 << "\" y=\"26\" text-anchor=\"middle\" font-size=\"17\""
             << " font-weight=\"bold\">" << escape(figure.title) << "</text>\n";
        // The subtitle on one line, or two when it is long (split at "; " or a space).
        std::string sub = figure.subtitle, rest;
        if (sub.size() > 140) {
            std::size_t cut = sub.rfind("; ", 140);
            std::size_t skip = 2;
            if (cut == std::string::npos || cut < 40) {
                cut = sub.rfind(' ', 140);
                skip = 1;
            }
            if (cut != std::string::npos) {
                rest = sub.substr(cut + skip);
                sub.resize(cut + (skip == 2 ? 1 : 0));
            }
        }
        for (const auto& [text, y] : {std::pair{sub, 45}, std::pair{rest, 61}})
            if (!text.empty())
                out_ << "<text x=\"" << width / 2 << "\" y=\"" << y
                     << "\" text-anchor=\"middle\" fill=\"#444\">" << escape(text) << "</text>\n";
    }

    /// x coordinate of a time in microseconds (clamped to the axis).
    [[nodiscard]] double x(double us) const
    {
        const double l = std::log10(std::max(us, 1e-3));
        const double f = (l - lo_) / (hi_ - lo_);
        return left + std::clamp(f, 0.0, 1.0) * (right - left);
    }
    /// y coordinate of a fraction 0..1 of @y_max.
    [[nodiscard]] static double y(double value, double y_max)
    {
        return bottom - std::clamp(value / y_max, 0.0, 1.0) * (bottom - top);
    }

    /// Grid, ticks and labels; @y_ticks values in 0..@y_max, printed with @y_unit.
    void axes(const std::vector<double>& y_ticks, double y_max, const std::string& y_unit,
              const std::string& x_label, const std::string& y_label)
    {
        out_ << "<g stroke=\"#e4e4e4\" stroke-width=\"1\">\n";
        for (int d = lo_; d < hi_; d++)
            for (int m = 2; m <= 9; m++) {
                const double px = x(std::pow(10.0, d) * m);
                out_ << "<line x1=\"" << num(px) << "\" y1=\"" << top << "\" x2=\"" << num(px)
                     << "\" y2=\"" << bottom << "\"/>\n";
            }
        out_ << "</g>\n<g stroke=\"#bbbbbb\" stroke-width=\"1\">\n";
        for (int d = lo_; d <= hi_; d++) {
            const double px = x(std::pow(10.0, d));
            out_ << "<line x1=\"" << num(px) << "\" y1=\"" << top << "\" x2=\"" << num(px)
                 << "\" y2=\"" << bottom << "\"/>\n";
        }
        for (const double t : y_ticks) {
            const double py = y(t, y_max);
            out_ << "<line x1=\"" << left << "\" y1=\"" << num(py) << "\" x2=\"" << right
                 << "\" y2=\"" << num(py) << "\"/>\n";
        }
        out_ << "</g>\n";
        out_ << "<rect x=\"" << left << "\" y=\"" << top << "\" width=\"" << right - left
             << "\" height=\"" << bottom - top << "\" fill=\"none\" stroke=\"black\"/>\n";
        for (int d = lo_; d <= hi_; d++)
            out_ << "<text x=\"" << num(x(std::pow(10.0, d))) << "\" y=\"" << bottom + 18
                 << "\" text-anchor=\"middle\">" << escape(decade_label(d)) << "</text>\n";
        for (const double t : y_ticks) {
            char label[32];
            std::snprintf(label, sizeof(label), "%g%s", t, y_unit.c_str());
            out_ << "<text x=\"" << left - 6 << "\" y=\"" << num(y(t, y_max) + 4)
                 << "\" text-anchor=\"end\">" << escape(label) << "</text>\n";
        }
        out_ << "<text x=\"" << (left + right) / 2 << "\" y=\"" << bottom + 42
             << "\" text-anchor=\"middle\">" << escape(x_label) << "</text>\n"
             << "<text transform=\"translate(22," << (top + bottom) / 2
             << ") rotate(-90)\" text-anchor=\"middle\">" << escape(y_label) << "</text>\n";
    }

    /// A polyline through @points (x, y pairs in pixels).
    void line(const std::vector<std::pair<double, double>>& points, const Series& s,
              double width_px = 2)
    {
        out_ << "<polyline fill=\"none\" stroke=\"" << s.color << "\" stroke-width=\""
             << num(width_px) << '"';
        if (s.dashed)
            out_ << " stroke-dasharray=\"6 4\"";
        out_ << " points=\"";
        for (const auto& [px, py] : points)
            out_ << num(px) << ',' << num(py) << ' ';
        out_ << "\"/>\n";
    }

    void markers(const Figure& figure)
    {
        for (const Marker& m : figure.markers) {
            const double px = x(m.x_us);
            out_ << "<line x1=\"" << num(px) << "\" y1=\"" << top << "\" x2=\"" << num(px)
                 << "\" y2=\"" << bottom
                 << "\" stroke=\"black\" stroke-width=\"1.5\" stroke-dasharray=\"2 3\"/>\n"
                 << "<text x=\"" << num(px + 4) << "\" y=\"" << top + 14 << "\">" << escape(m.label)
                 << "</text>\n";
        }
    }

    /// The legend, right of the plot: each series' label, its notes, then its percentiles.
    void legend(const Figure& figure)
    {
        double py = top + 8;
        const double lx = right + 22;
        for (const Series& s : figure.series) {
            out_ << "<line x1=\"" << lx << "\" y1=\"" << num(py) << "\" x2=\"" << lx + 28
                 << "\" y2=\"" << num(py) << "\" stroke=\"" << s.color << "\" stroke-width=\"3\"";
            if (s.dashed)
                out_ << " stroke-dasharray=\"6 4\"";
            out_ << "/>\n<text x=\"" << lx + 36 << "\" y=\"" << num(py + 4) << "\">"
                 << escape(s.label) << "</text>\n";
            std::vector<std::string> notes = s.notes;
            notes.push_back(summary_note(s.values_us));
            for (const std::string& note : notes) {
                py += 15;
                out_ << "<text x=\"" << lx + 36 << "\" y=\"" << num(py + 4)
                     << "\" fill=\"#555\" font-size=\"11\">" << escape(note) << "</text>\n";
            }
            py += 24;
        }
    }

    std::string finish()
    {
        out_ << "</svg>\n";
        return out_.str();
    }

private:
    std::ostringstream out_;
    int lo_{0};
    int hi_{1};
};

inline std::pair<double, double> range(const Figure& figure)
{
    double lo = 0, hi = 0;
    bool any = false;
    for (const Series& s : figure.series)
        for (const double v : s.values_us) {
            lo = any ? std::min(lo, v) : v;
            hi = any ? std::max(hi, v) : v;
            any = true;
        }
    for (const Marker& m : figure.markers) {
        lo = any ? std::min(lo, m.x_us) : m.x_us;
        hi = any ? std::max(hi, m.x_us) : m.x_us;
        any = true;
    }
    if (!any)
        return {1, 10};
    return {lo, hi};
}

} // namespace detail

/**
 * Cumulative distribution of each series: fraction of samples at or below
 * a latency, latency on a log scale. A dotted line marks the 99th
 * percentile.
 */
inline std::string cdf_svg(const Figure& figure)
{
    const auto [lo, hi] = detail::range(figure);
    detail::Canvas c(figure, lo, hi);
    c.axes({0, 25, 50, 75, 90, 99}, 100, "%", "latency (log scale)", "samples at or below (%)");
    for (const Series& s : figure.series) {
        std::vector<double> v = s.values_us;
        std::sort(v.begin(), v.end());
        std::vector<std::pair<double, double>> points;
        const double n = static_cast<double>(v.size());
        for (std::size_t i = 0; i < v.size(); i++) {
            const double px = c.x(v[i]);
            points.emplace_back(px, detail::Canvas::y(100.0 * static_cast<double>(i) / n, 100));
            points.emplace_back(px, detail::Canvas::y(100.0 * static_cast<double>(i + 1) / n, 100));
        }
        c.line(points, s);
    }
    c.markers(figure);
    c.legend(figure);
    return c.finish();
}

/**
 * Histogram of each series: percentage of its samples in each bin, bins
 * of equal width on the log scale (@bins_per_decade per decade).
 */
inline std::string histogram_svg(const Figure& figure, int bins_per_decade = 10)
{
    const auto [lo, hi] = detail::range(figure);
    const auto [lo_d, hi_d] = detail::Canvas::decades(lo, hi);
    const int bins = (hi_d - lo_d) * bins_per_decade;
    std::vector<std::vector<double>> percent;
    double y_max = 0;
    for (const Series& s : figure.series) {
        std::vector<double> h(static_cast<std::size_t>(bins), 0.0);
        for (const double v : s.values_us) {
            const double pos = (std::log10(std::max(v, 1e-3)) - lo_d) * bins_per_decade;
            const int b = std::clamp(static_cast<int>(std::floor(pos)), 0, bins - 1);
            h[static_cast<std::size_t>(b)] += 100.0 / static_cast<double>(s.values_us.size());
        }
        for (const double p : h)
            y_max = std::max(y_max, p);
        percent.push_back(std::move(h));
    }
    // A round scale: 10, 20, 25, 50 or 100 %.
    double top = 100;
    for (const double t : {10.0, 20.0, 25.0, 50.0})
        if (y_max <= t) {
            top = t;
            break;
        }
    std::vector<double> ticks;
    for (int i = 0; i <= 5; i++)
        ticks.push_back(top * i / 5);

    detail::Canvas c(figure, lo, hi);
    c.axes(ticks, top, "%", "latency (log scale)", "frames in bin (%)");
    for (std::size_t i = 0; i < figure.series.size(); i++) {
        std::vector<std::pair<double, double>> points;
        const auto edge = [&](int b) {
            return c.x(std::pow(10.0, lo_d + static_cast<double>(b) / bins_per_decade));
        };
        points.emplace_back(edge(0), detail::Canvas::y(0, top));
        for (int b = 0; b < bins; b++) {
            const double py = detail::Canvas::y(percent[i][static_cast<std::size_t>(b)], top);
            points.emplace_back(edge(b), py);
            points.emplace_back(edge(b + 1), py);
        }
        points.emplace_back(edge(bins), detail::Canvas::y(0, top));
        c.line(points, figure.series[i]);
    }
    c.markers(figure);
    c.legend(figure);
    return c.finish();
}

/**
 * Writes @text to @path and returns the path written. A leading
 * "$TEMPO_OUT" in @path is replaced with that variable (for a path quoted
 * on the host, expanded in the VM). When @path cannot be written and
 * $TEMPO_OUT is set (the one writable directory of the test VM), the file
 * goes there under its own name instead. Throws std::runtime_error when
 * nothing could be written.
 */
inline std::string write_output(std::string path, const std::string& text)
{
    const char* out_dir = std::getenv("TEMPO_OUT");
    const std::string dir = out_dir ? out_dir : "";
    for (const std::string_view var : {"${TEMPO_OUT}", "$TEMPO_OUT"})
        if (path.starts_with(var) && !dir.empty()) {
            path = dir + path.substr(var.size());
            break;
        }
    const auto write = [&](const std::string& p) {
        std::ofstream out(p, std::ios::binary | std::ios::trunc);
        out << text;
        out.close();
        return static_cast<bool>(out);
    };
    if (write(path))
        return path;
    const int error = errno;
    const std::string fallback = dir + "/" + path.substr(path.find_last_of('/') + 1);
    if (!dir.empty() && fallback != path && write(fallback)) {
        std::fprintf(stderr, "cannot write %s (%s); wrote %s instead\n", path.c_str(),
                     std::strerror(error), fallback.c_str());
        return fallback;
    }
    throw std::runtime_error("cannot write " + path + ": " + std::strerror(error));
}

} // namespace tempo::plot
