// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * tempo-top's output: a View as JSON (--json) and as the text frame that
 * the terminal shows.
 */
#pragma once

#include <algorithm>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "tempo-tooling/json.hpp"
#include "top.hpp"

namespace tempo::top {

// ---------------------------------------------------------------------------
// JSON

using tooling::Json;

/// Percentages with two decimals, as the text shows one.
inline Json percent_json(const std::optional<double>& p)
{
    return tooling::number(p, 2);
}

inline Json hqd_json(const HqdView& h)
{
    return {{"queue", h.row.queue},
            {"pipe_prio", h.row.pipe_prio},
            {"queue_prio", h.row.queue_prio},
            {"state", h.row.state()},
            {"busy_percent", percent_json(h.busy_percent)},
            {"busy_ns", tooling::value_or_null(h.row.busy_ns)},
            {"rptr", h.row.rptr},
            {"wptr", h.row.wptr},
            {"done", h.row.done},
            {"jobs_done", h.done_delta},
            {"jobs_per_s", tooling::number(h.jobs_per_s)},
            {"preemptions", h.row.preemptions}};
}

inline Json engine_json(const EngineView& e)
{
    Json hqds = Json::array();
    for (const auto& h : e.hqds)
        hqds.push_back(hqd_json(h));
    return {{"name", e.name},
            {"state", e.state},
            {"busy_percent", percent_json(e.busy_percent)},
            {"jobs_done", e.done_delta},
            {"jobs_per_s", tooling::number(e.jobs_per_s)},
            {"hqds", std::move(hqds)}};
}

inline Json cus_json(const CuPool& cus)
{
    return {{"cus", cus.cus},
            {"busy", cus.busy},
            {"busy_percent", percent_json(percent(cus.busy, static_cast<double>(cus.cus)))},
            {"busy_below_high", cus.busy_below_high},
            {"reserved_for_high", cus.reserved_for_high},
            {"high_queues_with_work", cus.high_queues_with_work},
            {"sequencer", cus.sequencer},
            {"workgroups_done", cus.workgroups_done}};
}

inline Json client_json(const ClientView& c)
{
    Json engines = Json::object();
    for (const auto& [cls, u] : c.classes)
        engines[cls] = {{"busy_ns", u.busy_ns},
                        {"capacity", u.capacity},
                        {"busy_percent", percent_json(u.busy_percent)}};
    Json client = {{"id", c.id},
                   {"pid", c.pid},
                   {"comm", c.comm},
                   {"engines", std::move(engines)},
                   {"total_memory", tooling::value_or_null(c.total_memory)},
                   {"resident_memory", tooling::value_or_null(c.resident_memory)}};
    if (c.contexts)
        client["contexts"] = {{"count", c.contexts->count},
                              {"max_priority", c.contexts->max_priority},
                              {"in_flight", c.contexts->in_flight},
                              {"banned", c.contexts->banned}};
    return client;
}

inline Json context_json(const ContextRow& c)
{
    return {{"client", c.client},
            {"pid", c.pid},
            {"ctx", c.ctx},
            {"priority", c.priority},
            {"effective", c.effective},
            {"banned", c.banned},
            {"in_flight", c.in_flight}};
}

/// @v as the JSON object of --json, measured over @interval_ms.
inline Json view_json(const View& v, std::uint64_t interval_ms)
{
    Json engines = Json::array();
    for (const auto& e : v.engines)
        engines.push_back(engine_json(e));
    Json clients = Json::array();
    for (const auto& c : v.clients)
        clients.push_back(client_json(c));
    Json contexts = nullptr;
    if (v.contexts) {
        contexts = Json::array();
        for (const auto& c : *v.contexts)
            contexts.push_back(context_json(c));
    }
    return {{"interval_ms", interval_ms},
            {"measured_interval_s", tooling::number(v.interval_s)},
            {"debugfs", v.debugfs ? Json(v.debugfs->string()) : Json(nullptr)},
            {"debugfs_error",
             v.debugfs || v.debugfs_problem.empty() ? Json(nullptr) : Json(v.debugfs_problem)},
            {"engines", std::move(engines)},
            {"cus", v.cus ? cus_json(*v.cus) : Json(nullptr)},
            {"clients", std::move(clients)},
            {"contexts", std::move(contexts)}};
}

/// @v as --json prints it alone: one document, indented.
inline void write_json(const View& v, std::ostream& out, std::uint64_t interval_ms)
{
    tooling::print(view_json(v, interval_ms), out);
}

/// @v as --json -n prints each sample: one document on one line (JSON Lines).
inline void write_json_line(const View& v, std::ostream& out, std::uint64_t interval_ms)
{
    out << view_json(v, interval_ms).dump(-1, ' ', false, Json::error_handler_t::replace) << '\n';
}

// ---------------------------------------------------------------------------
// Text

/// printf() into a string.
[[gnu::format(printf, 1, 2)]] inline std::string format(const char* fmt, ...)
{
    char buf[512];
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(buf, sizeof(buf), fmt, args);
    va_end(args);
    return buf;
}

/// "12.5%" or "-" when unknown, right-aligned in 6 columns.
inline std::string format_percent(const std::optional<double>& p)
{
    return p ? format("%5.1f%%", *p) : format("%6s", "-");
}

/// A bar of @width cells filled to @p percent.
inline std::string bar(const std::optional<double>& p, std::size_t width)
{
    const auto filled =
        p ? static_cast<std::size_t>(*p / 100.0 * static_cast<double>(width) + 0.5) : 0;
    return "[" + std::string(std::min(filled, width), '|') +
           std::string(width - std::min(filled, width), ' ') + "]";
}

/// "4.0 MiB", "512 KiB", "100 B", or "-".
inline std::string format_size(const std::optional<std::uint64_t>& bytes)
{
    if (!bytes)
        return "-";
    const auto b = static_cast<double>(*bytes);
    if (*bytes >= (1ULL << 30))
        return format("%.1f GiB", b / double(1ULL << 30));
    if (*bytes >= (1ULL << 20))
        return format("%.1f MiB", b / double(1ULL << 20));
    if (*bytes >= (1ULL << 10))
        return format("%.0f KiB", b / double(1ULL << 10));
    return format("%llu B", static_cast<unsigned long long>(*bytes));
}

inline unsigned long long ull(std::uint64_t v)
{
    return static_cast<unsigned long long>(v);
}

/// A text frame being built: lines cut to a width (0: no limit).
struct Frame {
    std::size_t width{0};
    std::size_t bar_width{30};
    std::vector<std::string> lines;

    void add(std::string line)
    {
        if (width && line.size() > width)
            line.resize(width);
        lines.push_back(std::move(line));
    }
};

inline void render_cus(Frame& f, const CuPool& cus)
{
    const auto p = percent(cus.busy, static_cast<double>(cus.cus));
    f.add(format("%-12s %s %s %llu/%llu busy", "CU pool", bar(p, f.bar_width).c_str(),
                 format_percent(p).c_str(), ull(cus.busy), ull(cus.cus)));
    f.add(format("  below high %llu, reserved for high %llu, high queues with work %llu, "
                 "%s sequencer, %llu workgroups done",
                 ull(cus.busy_below_high), ull(cus.reserved_for_high),
                 ull(cus.high_queues_with_work), cus.sequencer.c_str(), ull(cus.workgroups_done)));
}

/// Engine @e's line and, with @queues, one line per queue under it.
inline void render_engine(Frame& f, const EngineView& e, bool queues)
{
    f.add(format("%-12s %s %s %-9s %8.1f", e.name.c_str(), bar(e.busy_percent, f.bar_width).c_str(),
                 format_percent(e.busy_percent).c_str(), e.state.c_str(), e.jobs_per_s));
    if (!queues)
        return;
    for (const auto& h : e.hqds) {
        const auto prio = std::to_string(h.row.pipe_prio) + "/" + std::to_string(h.row.queue_prio);
        const auto ptrs = std::to_string(h.row.rptr) + "/" + std::to_string(h.row.wptr);
        f.add(format("  queue %-4u %s %s %-9s %8.1f %-9s %11s %7llu", h.row.queue,
                     bar(h.busy_percent, f.bar_width).c_str(),
                     format_percent(h.busy_percent).c_str(), h.row.state().c_str(), h.jobs_per_s,
                     prio.c_str(), ptrs.c_str(), ull(h.row.preemptions)));
    }
}

inline void render_engines(Frame& f, const std::vector<EngineView>& engines, bool queues)
{
    if (engines.empty())
        return;
    if (queues)
        f.add(format("%-12s %-*s %6s %-9s %8s %-9s %11s %7s", "ENGINE/HQD",
                     static_cast<int>(f.bar_width + 2), "BUSY", "", "STATE", "JOBS/S", "PRIO P/Q",
                     "RPTR/WPTR", "PREEMPT"));
    else
        f.add(format("%-12s %-*s %6s %-9s %8s", "ENGINE", static_cast<int>(f.bar_width + 2), "BUSY",
                     "", "STATE", "JOBS/S"));
    for (const auto& e : engines)
        render_engine(f, e, queues);
}

inline std::string client_header(bool with_contexts)
{
    std::string header = format("%7s %-15s %4s", "PID", "COMMAND", "ID");
    for (const auto cls : engine_classes)
        header += format(" %7s", std::string{cls}.c_str());
    header += format(" %9s %9s", "MEM", "RESIDENT");
    if (with_contexts)
        header += format(" %4s %-9s %6s", "CTX", "MAX-PRIO", "INFLT");
    return header;
}

inline std::string client_line(const ClientView& c)
{
    std::string line = format("%7llu %-15.15s %4llu", ull(c.pid), c.comm.c_str(), ull(c.id));
    for (const auto cls : engine_classes) {
        const auto it = c.classes.find(cls);
        const auto p = it == c.classes.end() ? std::nullopt : it->second.busy_percent;
        line += format(" %7s", format_percent(p).c_str());
    }
    line += format(" %9s %9s", format_size(c.total_memory).c_str(),
                   format_size(c.resident_memory).c_str());
    if (c.contexts)
        line += format(" %4llu %-9s %6llu", ull(c.contexts->count),
                       c.contexts->max_priority.empty() ? "-" : c.contexts->max_priority.c_str(),
                       ull(c.contexts->in_flight));
    return line;
}

/// How a frame fits a terminal.
struct Layout {
    /// Columns; 0: no limit.
    std::size_t width{0};
    /// Lines; 0: no limit, every client shown.
    std::size_t rows{0};
    /// The queues' lines under their engines; nullopt: shown when the
    /// lines down to the last queue take at most half the rows.
    std::optional<bool> queues;
    /// Clients scrolled off above the first one shown.
    std::size_t scroll{0};
};

/// An empty frame @width columns wide.
inline Frame frame_of(std::size_t width)
{
    return {.width = width, .bar_width = width == 0 || width >= 100 ? 30U : 16U, .lines = {}};
}

/// The lines above the clients: the source and interval, the CU pool, the
/// engines and, with @queues, their queues.
inline void render_device(Frame& f, const View& v, bool queues)
{
    const auto source = v.debugfs ? v.debugfs->string() : "no device data: " + v.debugfs_problem;
    f.add(format("tempo-top - %s, interval %.2f s", source.c_str(), v.interval_s));
    if (v.cus)
        render_cus(f, *v.cus);
    f.add("");
    render_engines(f, v.engines, queues);
}

/// Whether @l shows the queues of @v.
inline bool queues_shown(const View& v, const Layout& l)
{
    if (l.queues)
        return *l.queues;
    if (!l.rows)
        return true;
    auto f = frame_of(l.width);
    render_device(f, v, true);
    return f.lines.size() <= l.rows / 2;
}

/// The lines left for the clients below their header; nullopt: no limit.
inline std::optional<std::size_t> client_rows(const View& v, const Layout& l)
{
    if (!l.rows)
        return std::nullopt;
    auto f = frame_of(l.width);
    render_device(f, v, queues_shown(v, l));
    const auto above = f.lines.size() + 2; // a blank line, the header
    return l.rows > above ? l.rows - above : 0;
}

/// The clients @room lines show when not all of them fit: one line tells
/// which of them are shown.
inline std::size_t clients_shown(std::size_t room)
{
    return room > 1 ? room - 1 : 0;
}

/// The most clients @l may scroll off: the last ones fill its rows.
inline std::size_t max_scroll(const View& v, const Layout& l)
{
    const auto room = client_rows(v, l);
    if (!room || v.clients.size() <= *room || !clients_shown(*room))
        return 0;
    return v.clients.size() - clients_shown(*room);
}

/// The clients' lines, as many as @room has lines (nullopt: all), from
/// the @scroll-th one.
inline void render_clients(Frame& f, const View& v, std::optional<std::size_t> room,
                           std::size_t scroll)
{
    f.add(client_header(v.contexts.has_value()));
    if (v.clients.empty())
        f.add("  (no tempo clients)");
    if (!room || v.clients.size() <= *room) {
        for (const auto& c : v.clients)
            f.add(client_line(c));
        return;
    }
    const auto shown = clients_shown(*room);
    if (!shown) {
        if (*room)
            f.add(format("  %zu clients, no room for them", v.clients.size()));
        return;
    }
    const auto first = std::min(scroll, v.clients.size() - shown);
    for (std::size_t i = first; i < first + shown; i++)
        f.add(client_line(v.clients[i]));
    if (*room)
        f.add(format("  clients %zu-%zu of %zu (up/down, PgUp/PgDn, Home/End)", first + 1,
                     first + shown, v.clients.size()));
}

/// The text frame of @v laid out as @l says: one string per line.
inline std::vector<std::string> render(const View& v, const Layout& l)
{
    auto f = frame_of(l.width);
    render_device(f, v, queues_shown(v, l));
    f.add("");
    render_clients(f, v, client_rows(v, l), l.scroll);
    return f.lines;
}

/// The whole text frame: one string per line, at most @width columns each
/// (0: no limit).
inline std::vector<std::string> render(const View& v, std::size_t width)
{
    return render(v, Layout{.width = width, .rows = 0, .queues = std::nullopt, .scroll = 0});
}

} // namespace tempo::top
