// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * tempo-top's model: parsers of the debugfs files (hqds, cus, contexts) and
 * of the DRM fdinfo keys, a Sample of all of them at one instant, and the
 * View that two Samples give (busyness over the interval between them),
 * with its text and JSON forms. No device and no terminal here, so that
 * the unit tests can feed fixture text and fake /proc trees.
 */
#pragma once

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <tempo/types.hpp>

#include "tempo-tooling/json.hpp"

namespace tempo::top {

// ---------------------------------------------------------------------------
// Text helpers

/// The whitespace-separated words of @line.
inline std::vector<std::string_view> words(std::string_view line)
{
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
            i++;
        std::size_t j = i;
        while (j < line.size() && line[j] != ' ' && line[j] != '\t')
            j++;
        if (j > i)
            out.push_back(line.substr(i, j - i));
        i = j;
    }
    return out;
}

/// The lines of @text, without their '\n' (a last line without one included).
inline std::vector<std::string_view> lines(std::string_view text)
{
    std::vector<std::string_view> out;
    while (!text.empty()) {
        const auto nl = text.find('\n');
        out.push_back(text.substr(0, nl));
        if (nl == std::string_view::npos)
            break;
        text.remove_prefix(nl + 1);
    }
    return out;
}

inline std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

/// @text as an unsigned decimal number, if it is one entirely.
inline std::optional<std::uint64_t> to_u64(std::string_view text)
{
    std::uint64_t v = 0;
    const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc{} || p != text.data() + text.size())
        return std::nullopt;
    return v;
}

inline std::optional<std::int64_t> to_i64(std::string_view text)
{
    std::int64_t v = 0;
    const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc{} || p != text.data() + text.size())
        return std::nullopt;
    return v;
}

/// The contents of a file, or nullopt when it cannot be read.
inline std::optional<std::string> read_text(const std::filesystem::path& path)
{
    std::ifstream in(path);
    if (!in)
        return std::nullopt;
    std::ostringstream s;
    s << in.rdbuf();
    if (in.bad())
        return std::nullopt;
    return s.str();
}

/// A table with a header line of column names: each row as name -> word.
/// Rows with fewer words than the header are skipped; a first column whose
/// value was printed as two words ("gfx    0" for "gfx0") is joined again.
inline std::vector<std::map<std::string, std::string, std::less<>>>
parse_table(std::string_view text)
{
    std::vector<std::map<std::string, std::string, std::less<>>> rows;
    const auto all = lines(text);
    std::size_t first = 0;
    while (first < all.size() && trim(all[first]).empty())
        first++;
    if (first == all.size())
        return rows;
    const auto header = words(all[first]);
    for (std::size_t l = first + 1; l < all.size(); l++) {
        auto w = words(all[l]);
        if (w.empty())
            continue;
        std::string head{w[0]};
        std::size_t skip = 0;
        if (w.size() == header.size() + 1 && to_u64(w[1]) && !to_u64(w[0])) {
            head += w[1];
            skip = 1;
        }
        if (w.size() - skip < header.size())
            continue;
        std::map<std::string, std::string, std::less<>> row;
        row[std::string{header[0]}] = head;
        for (std::size_t c = 1; c < header.size(); c++)
            row[std::string{header[c]}] = std::string{w[c + skip]};
        rows.push_back(std::move(row));
    }
    return rows;
}

template <typename Map>
std::optional<std::uint64_t> u64_field(const Map& row, std::string_view name)
{
    const auto it = row.find(name);
    if (it == row.end())
        return std::nullopt;
    return to_u64(it->second);
}

/// "key: value" lines as a map (values trimmed); other lines are skipped.
inline std::map<std::string, std::string, std::less<>> parse_key_values(std::string_view text)
{
    std::map<std::string, std::string, std::less<>> out;
    for (const auto line : lines(text)) {
        const auto colon = line.find(':');
        if (colon == std::string_view::npos || colon == 0)
            continue;
        out[std::string{trim(line.substr(0, colon))}] = std::string{trim(line.substr(colon + 1))};
    }
    return out;
}

// ---------------------------------------------------------------------------
// debugfs: hqds

/// One line of debugfs "hqds".
struct HqdRow {
    std::string engine; ///< "compute0"
    std::uint32_t queue{0};
    std::uint32_t pipe_prio{0};
    std::uint32_t queue_prio{0};
    bool active{false};
    bool running{false};
    bool preempted{false};
    std::uint64_t rptr{0};
    std::uint64_t wptr{0};
    std::uint64_t done{0};
    std::uint64_t preemptions{0};
    /// Nanoseconds the engine spent on this queue so far (absent from older kernels).
    std::optional<std::uint64_t> busy_ns;

    /// running, preempted, queued (work in the ring), idle or off (not mapped).
    [[nodiscard]] std::string state() const
    {
        if (running)
            return "running";
        if (preempted)
            return "preempted";
        if (!active)
            return "off";
        return rptr != wptr ? "queued" : "idle";
    }
};

/// Parses "hqds" by the names of its header, in any column order.
inline std::vector<HqdRow> parse_hqds(std::string_view text)
{
    std::vector<HqdRow> out;
    for (const auto& row : parse_table(text)) {
        HqdRow h;
        const auto engine = row.find("engine");
        if (engine == row.end())
            continue;
        h.engine = engine->second;
        auto num = [&](std::string_view name) { return u64_field(row, name).value_or(0); };
        h.queue = static_cast<std::uint32_t>(num("queue"));
        h.pipe_prio = static_cast<std::uint32_t>(num("pipe_prio"));
        h.queue_prio = static_cast<std::uint32_t>(num("queue_prio"));
        h.active = num("active") != 0;
        h.running = num("running") != 0;
        h.preempted = num("preempted") != 0;
        h.rptr = num("rptr");
        h.wptr = num("wptr");
        h.done = num("done");
        h.preemptions = num("preemptions");
        h.busy_ns = u64_field(row, "busy_ns");
        out.push_back(std::move(h));
    }
    return out;
}

// ---------------------------------------------------------------------------
// debugfs: cus

/// debugfs "cus": the compute-unit pool.
struct CuPool {
    std::uint64_t cus{0};
    std::uint64_t busy{0};
    std::uint64_t busy_below_high{0};
    std::uint64_t reserved_for_high{0};
    std::uint64_t high_queues_with_work{0};
    std::string sequencer;
    std::uint64_t workgroups_done{0};
};

inline std::optional<CuPool> parse_cus(std::string_view text)
{
    const auto kv = parse_key_values(text);
    if (!kv.contains("cus"))
        return std::nullopt;
    CuPool p;
    auto num = [&](std::string_view name) { return u64_field(kv, name).value_or(0); };
    p.cus = num("cus");
    p.busy = num("busy");
    p.busy_below_high = num("busy_below_high");
    p.reserved_for_high = num("reserved_for_high");
    p.high_queues_with_work = num("high_queues_with_work");
    p.workgroups_done = num("workgroups_done");
    if (const auto it = kv.find("sequencer"); it != kv.end())
        p.sequencer = it->second;
    return p;
}

// ---------------------------------------------------------------------------
// debugfs: contexts

/// One line of debugfs "contexts".
struct ContextRow {
    std::uint64_t client{0};
    std::uint64_t pid{0};
    std::uint64_t ctx{0};
    std::string priority;  ///< as printed: a name or a number
    std::string effective; ///< as printed
    bool banned{false};
    std::uint64_t in_flight{0};
};

/// A priority as printed (a uAPI number or a name such as "high") as its uAPI value.
inline std::optional<std::int64_t> priority_value(std::string_view text)
{
    if (const auto n = to_i64(text))
        return n;
    std::string name{text};
    std::replace(name.begin(), name.end(), '_', '-');
    std::transform(name.begin(), name.end(), name.begin(),
                   [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; });
    static constexpr std::pair<std::string_view, std::int64_t> names[] = {
        {"very-low", -1023}, {"low", -512}, {"normal", 0}, {"high", 512}, {"very-high", 1023}};
    for (const auto& [n, v] : names)
        if (name == n)
            return v;
    return std::nullopt;
}

/// A priority for display: its name ("high") when it is a known uAPI value.
inline std::string priority_name(std::string_view text)
{
    static constexpr std::pair<std::int64_t, std::string_view> names[] = {
        {-1023, "very-low"}, {-512, "low"}, {0, "normal"}, {512, "high"}, {1023, "very-high"}};
    if (const auto n = to_i64(text))
        for (const auto& [v, name] : names)
            if (*n == v)
                return std::string{name};
    return std::string{text};
}

inline std::vector<ContextRow> parse_contexts(std::string_view text)
{
    std::vector<ContextRow> out;
    for (const auto& row : parse_table(text)) {
        ContextRow c;
        auto num = [&](std::string_view name) { return u64_field(row, name).value_or(0); };
        auto str = [&](std::string_view name) {
            const auto it = row.find(name);
            return it == row.end() ? std::string{} : it->second;
        };
        c.client = num("client");
        c.pid = num("pid");
        c.ctx = num("ctx");
        c.priority = str("priority");
        c.effective = str("effective");
        const auto banned = str("banned");
        c.banned = !banned.empty() && banned != "0" && banned != "no" && banned != "false";
        c.in_flight = num("in_flight");
        out.push_back(std::move(c));
    }
    return out;
}

// ---------------------------------------------------------------------------
// fdinfo

inline constexpr std::string_view engine_classes[] = {"gfx", "compute", "copy"};

/// A size as fdinfo prints it ("4 MiB", "512 KiB", "123" bytes), in bytes.
inline std::optional<std::uint64_t> parse_size(std::string_view text)
{
    const auto w = words(text);
    if (w.empty() || w.size() > 2)
        return std::nullopt;
    const auto n = to_u64(w[0]);
    if (!n)
        return std::nullopt;
    if (w.size() == 1 || w[1] == "B")
        return n;
    static constexpr std::pair<std::string_view, unsigned> units[] = {
        {"KiB", 10}, {"MiB", 20}, {"GiB", 30}, {"TiB", 40}};
    for (const auto& [unit, shift] : units)
        if (w[1] == unit)
            return *n << shift;
    return std::nullopt;
}

/// What one DRM file's fdinfo says, if it is a tempo file.
struct FdInfo {
    std::uint64_t client_id{0};
    /// drm-engine-<class> in ns, by class name.
    std::map<std::string, std::uint64_t, std::less<>> engine_ns;
    /// drm-engine-capacity-<class>, by class name (1 when absent).
    std::map<std::string, std::uint64_t, std::less<>> capacity;
    std::optional<std::uint64_t> total_memory;
    std::optional<std::uint64_t> resident_memory;
};

/// Parses one fdinfo file; nullopt unless it is "drm-driver: tempo" with a client id.
inline std::optional<FdInfo> parse_fdinfo(std::string_view text)
{
    const auto kv = parse_key_values(text);
    const auto driver = kv.find("drm-driver");
    if (driver == kv.end() || driver->second != "tempo")
        return std::nullopt;
    const auto id = u64_field(kv, "drm-client-id");
    if (!id)
        return std::nullopt;
    FdInfo f;
    f.client_id = *id;
    constexpr std::string_view engine_prefix = "drm-engine-";
    constexpr std::string_view capacity_prefix = "drm-engine-capacity-";
    for (const auto& [key, value] : kv) {
        const std::string_view k{key};
        if (k.starts_with(capacity_prefix)) {
            if (const auto n = to_u64(value))
                f.capacity[std::string{k.substr(capacity_prefix.size())}] = *n;
        } else if (k.starts_with(engine_prefix)) {
            const auto w = words(value);
            if (!w.empty() && (w.size() == 1 || w[1] == "ns"))
                if (const auto n = to_u64(w[0]))
                    f.engine_ns[std::string{k.substr(engine_prefix.size())}] = *n;
        }
    }
    if (const auto it = kv.find("drm-total-memory"); it != kv.end())
        f.total_memory = parse_size(it->second);
    if (const auto it = kv.find("drm-resident-memory"); it != kv.end())
        f.resident_memory = parse_size(it->second);
    return f;
}

/// One DRM client (drm-client-id) of tempo, found in /proc.
struct Client {
    FdInfo info;
    std::uint64_t pid{0};
    std::string comm;
};

/// Scans @proc/<pid>/fdinfo/* for tempo files; a client open in several
/// fds or processes counts once (the lowest pid names it).
inline std::map<std::uint64_t, Client> scan_clients(const std::filesystem::path& proc)
{
    namespace fs = std::filesystem;
    std::map<std::uint64_t, Client> clients;
    std::error_code ec;
    for (fs::directory_iterator it(proc, ec), end; !ec && it != end; it.increment(ec)) {
        const auto pid = to_u64(it->path().filename().string());
        if (!pid)
            continue;
        std::error_code fec;
        for (fs::directory_iterator fd(it->path() / "fdinfo", fec), fend; !fec && fd != fend;
             fd.increment(fec)) {
            const auto text = read_text(fd->path());
            if (!text)
                continue;
            auto info = parse_fdinfo(*text);
            if (!info)
                continue;
            auto [c, inserted] = clients.try_emplace(info->client_id);
            if (!inserted && c->second.pid <= *pid)
                continue;
            c->second.info = std::move(*info);
            c->second.pid = *pid;
            auto comm = read_text(it->path() / "comm").value_or("");
            c->second.comm = std::string{trim(lines(comm).empty() ? "" : lines(comm)[0])};
        }
    }
    return clients;
}

// ---------------------------------------------------------------------------
// debugfs directory

/// The tempo device's debugfs directory: @dir itself if it has "hqds",
/// else the first @dir/<minor> or @dir/dri/<minor> whose "name" says tempo.
inline std::optional<std::filesystem::path> find_debugfs(const std::filesystem::path& dir)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::exists(dir / "hqds", ec))
        return dir;
    for (const auto& base : {dir, dir / "dri"}) {
        std::vector<fs::path> minors;
        for (fs::directory_iterator it(base, ec), end; !ec && it != end; it.increment(ec))
            minors.push_back(it->path());
        std::sort(minors.begin(), minors.end(), [](const fs::path& a, const fs::path& b) {
            const auto x = to_u64(a.filename().string()), y = to_u64(b.filename().string());
            if (x && y)
                return *x < *y;
            return a < b;
        });
        for (const auto& m : minors) {
            const auto name = read_text(m / "name");
            if (name && name->find("tempo") != std::string::npos)
                return m;
        }
    }
    return std::nullopt;
}

// ---------------------------------------------------------------------------
// Samples and views

/// Everything tempo-top reads, at one instant.
struct Sample {
    std::chrono::nanoseconds time{0};
    std::optional<std::filesystem::path> debugfs;
    std::vector<HqdRow> hqds;
    std::optional<CuPool> cus;
    std::optional<std::vector<ContextRow>> contexts;
    std::map<std::uint64_t, Client> clients;
};

struct Sources {
    std::filesystem::path debugfs{"/sys/kernel/debug"};
    std::filesystem::path proc{"/proc"};
};

inline Sample take_sample(const Sources& src, std::chrono::nanoseconds now)
{
    Sample s;
    s.time = now;
    s.debugfs = find_debugfs(src.debugfs);
    if (s.debugfs) {
        if (const auto t = read_text(*s.debugfs / "hqds"))
            s.hqds = parse_hqds(*t);
        if (const auto t = read_text(*s.debugfs / "cus"))
            s.cus = parse_cus(*t);
        if (const auto t = read_text(*s.debugfs / "contexts"))
            s.contexts = parse_contexts(*t);
    }
    s.clients = scan_clients(src.proc);
    return s;
}

inline Sample take_sample(const Sources& src)
{
    return take_sample(src, std::chrono::steady_clock::now().time_since_epoch());
}

/// A percentage of @part over @whole, in 0..100; nullopt without a whole.
inline std::optional<double> percent(std::uint64_t part, double whole)
{
    if (!(whole > 0))
        return std::nullopt;
    return std::clamp(100.0 * static_cast<double>(part) / whole, 0.0, 100.0);
}

inline std::uint64_t delta(std::uint64_t now, std::uint64_t before)
{
    return now >= before ? now - before : 0;
}

struct HqdView {
    HqdRow row;
    /// Of the interval; nullopt without busy_ns.
    std::optional<double> busy_percent;
    std::uint64_t done_delta{0};
    double jobs_per_s{0};
};

struct EngineView {
    std::string name;
    std::string state;
    std::optional<double> busy_percent;
    std::uint64_t done_delta{0};
    double jobs_per_s{0};
    std::vector<HqdView> hqds;
};

struct ClassUsage {
    std::uint64_t busy_ns{0};
    std::uint64_t capacity{1};
    /// Of interval x capacity; nullopt for a client new in this interval.
    std::optional<double> busy_percent;
};

struct ClientContexts {
    std::uint64_t count{0};
    std::string max_priority;
    std::uint64_t in_flight{0};
    std::uint64_t banned{0};
};

struct ClientView {
    std::uint64_t id{0};
    std::uint64_t pid{0};
    std::string comm;
    std::map<std::string, ClassUsage, std::less<>> classes;
    std::optional<std::uint64_t> total_memory;
    std::optional<std::uint64_t> resident_memory;
    std::optional<ClientContexts> contexts;
};

/// What happened between two samples.
struct View {
    double interval_s{0};
    std::optional<std::filesystem::path> debugfs;
    std::vector<EngineView> engines;
    std::optional<CuPool> cus;
    std::optional<std::vector<ContextRow>> contexts;
    std::vector<ClientView> clients;
};

/// The state of an engine from those of its queues (the busiest wins).
inline std::string engine_state(const std::vector<HqdView>& hqds)
{
    static constexpr std::string_view order[] = {"running", "preempted", "queued", "idle", "off"};
    for (const auto s : order)
        for (const auto& h : hqds)
            if (h.row.state() == s)
                return std::string{s};
    return "off";
}

inline View compute_view(const Sample& before, const Sample& now)
{
    View v;
    const auto interval_ns = static_cast<double>((now.time - before.time).count());
    v.interval_s = interval_ns / 1e9;
    v.debugfs = now.debugfs;
    v.cus = now.cus;
    v.contexts = now.contexts;

    for (const auto& h : now.hqds) {
        HqdView hv;
        hv.row = h;
        const auto old = std::find_if(before.hqds.begin(), before.hqds.end(), [&](const HqdRow& o) {
            return o.engine == h.engine && o.queue == h.queue;
        });
        if (old != before.hqds.end()) {
            hv.done_delta = delta(h.done, old->done);
            if (h.busy_ns && old->busy_ns)
                hv.busy_percent = percent(delta(*h.busy_ns, *old->busy_ns), interval_ns);
        }
        hv.jobs_per_s =
            interval_ns > 0 ? static_cast<double>(hv.done_delta) * 1e9 / interval_ns : 0;
        auto e = std::find_if(v.engines.begin(), v.engines.end(),
                              [&](const EngineView& x) { return x.name == h.engine; });
        if (e == v.engines.end()) {
            EngineView ev;
            ev.name = h.engine;
            v.engines.push_back(std::move(ev));
            e = std::prev(v.engines.end());
        }
        e->hqds.push_back(std::move(hv));
    }
    for (auto& e : v.engines) {
        e.state = engine_state(e.hqds);
        bool all_timed = true;
        double busy = 0;
        for (const auto& h : e.hqds) {
            e.done_delta += h.done_delta;
            e.jobs_per_s += h.jobs_per_s;
            if (h.busy_percent)
                busy += *h.busy_percent;
            else
                all_timed = false;
        }
        // One command processor per engine: its queues' shares add up.
        if (all_timed && !e.hqds.empty())
            e.busy_percent = std::min(busy, 100.0);
    }

    for (const auto& [id, c] : now.clients) {
        ClientView cv;
        cv.id = id;
        cv.pid = c.pid;
        cv.comm = c.comm;
        cv.total_memory = c.info.total_memory;
        cv.resident_memory = c.info.resident_memory;
        const auto old = before.clients.find(id);
        for (const auto& [cls, ns] : c.info.engine_ns) {
            ClassUsage u;
            u.busy_ns = ns;
            if (const auto cap = c.info.capacity.find(cls); cap != c.info.capacity.end())
                u.capacity = cap->second ? cap->second : 1;
            if (old != before.clients.end()) {
                const auto o = old->second.info.engine_ns.find(cls);
                if (o != old->second.info.engine_ns.end())
                    u.busy_percent = percent(delta(ns, o->second),
                                             interval_ns * static_cast<double>(u.capacity));
            }
            cv.classes.emplace(cls, u);
        }
        if (now.contexts) {
            ClientContexts cc;
            std::optional<std::int64_t> best;
            for (const auto& ctx : *now.contexts) {
                if (ctx.client != id)
                    continue;
                cc.count++;
                cc.in_flight += ctx.in_flight;
                cc.banned += ctx.banned ? 1 : 0;
                const auto p = priority_value(ctx.priority);
                if (cc.max_priority.empty() || (p && (!best || *p > *best))) {
                    cc.max_priority = priority_name(ctx.priority);
                    best = p;
                }
            }
            cv.contexts = cc;
        }
        v.clients.push_back(std::move(cv));
    }
    return v;
}

// ---------------------------------------------------------------------------
// Output

inline void write_json(const View& v, std::ostream& out, std::uint64_t interval_ms)
{
    tooling::JsonWriter j(out);
    auto opt = [&](std::string_view name, const std::optional<double>& x) {
        j.key(name);
        if (x)
            j.value(*x, 2);
        else
            j.value(std::numeric_limits<double>::quiet_NaN());
    };
    j.begin_object();
    j.field("interval_ms", interval_ms);
    j.field("measured_interval_s", v.interval_s);
    j.key("debugfs");
    if (v.debugfs)
        j.value(v.debugfs->string());
    else
        j.value(std::numeric_limits<double>::quiet_NaN());
    j.key("engines").begin_array();
    for (const auto& e : v.engines) {
        j.begin_object();
        j.field("name", e.name);
        j.field("state", e.state);
        opt("busy_percent", e.busy_percent);
        j.field("jobs_done", e.done_delta);
        j.field("jobs_per_s", e.jobs_per_s);
        j.key("hqds").begin_array();
        for (const auto& h : e.hqds) {
            j.begin_object();
            j.field("queue", h.row.queue);
            j.field("pipe_prio", h.row.pipe_prio);
            j.field("queue_prio", h.row.queue_prio);
            j.field("state", h.row.state());
            opt("busy_percent", h.busy_percent);
            j.key("busy_ns");
            if (h.row.busy_ns)
                j.value(*h.row.busy_ns);
            else
                j.value(std::numeric_limits<double>::quiet_NaN());
            j.field("rptr", h.row.rptr);
            j.field("wptr", h.row.wptr);
            j.field("done", h.row.done);
            j.field("jobs_done", h.done_delta);
            j.field("jobs_per_s", h.jobs_per_s);
            j.field("preemptions", h.row.preemptions);
            j.end_object();
        }
        j.end_array();
        j.end_object();
    }
    j.end_array();
    j.key("cus");
    if (v.cus) {
        j.begin_object();
        j.field("cus", v.cus->cus);
        j.field("busy", v.cus->busy);
        opt("busy_percent", percent(v.cus->busy, static_cast<double>(v.cus->cus)));
        j.field("busy_below_high", v.cus->busy_below_high);
        j.field("reserved_for_high", v.cus->reserved_for_high);
        j.field("high_queues_with_work", v.cus->high_queues_with_work);
        j.field("sequencer", v.cus->sequencer);
        j.field("workgroups_done", v.cus->workgroups_done);
        j.end_object();
    } else {
        j.value(std::numeric_limits<double>::quiet_NaN());
    }
    j.key("clients").begin_array();
    for (const auto& c : v.clients) {
        j.begin_object();
        j.field("id", c.id);
        j.field("pid", c.pid);
        j.field("comm", c.comm);
        j.key("engines").begin_object();
        for (const auto& [cls, u] : c.classes) {
            j.key(cls).begin_object();
            j.field("busy_ns", u.busy_ns);
            j.field("capacity", u.capacity);
            opt("busy_percent", u.busy_percent);
            j.end_object();
        }
        j.end_object();
        j.key("total_memory");
        if (c.total_memory)
            j.value(*c.total_memory);
        else
            j.value(std::numeric_limits<double>::quiet_NaN());
        j.key("resident_memory");
        if (c.resident_memory)
            j.value(*c.resident_memory);
        else
            j.value(std::numeric_limits<double>::quiet_NaN());
        if (c.contexts) {
            j.key("contexts").begin_object();
            j.field("count", c.contexts->count);
            j.field("max_priority", c.contexts->max_priority);
            j.field("in_flight", c.contexts->in_flight);
            j.field("banned", c.contexts->banned);
            j.end_object();
        }
        j.end_object();
    }
    j.end_array();
    j.key("contexts");
    if (v.contexts) {
        j.begin_array();
        for (const auto& c : *v.contexts) {
            j.begin_object();
            j.field("client", c.client);
            j.field("pid", c.pid);
            j.field("ctx", c.ctx);
            j.field("priority", c.priority);
            j.field("effective", c.effective);
            j.field("banned", c.banned);
            j.field("in_flight", c.in_flight);
            j.end_object();
        }
        j.end_array();
    } else {
        j.value(std::numeric_limits<double>::quiet_NaN());
    }
    j.end_object();
}

/// "12.5%" or "-" when unknown, right-aligned in 6 columns.
inline std::string format_percent(const std::optional<double>& p)
{
    char buf[16];
    if (p)
        std::snprintf(buf, sizeof(buf), "%5.1f%%", *p);
    else
        std::snprintf(buf, sizeof(buf), "%6s", "-");
    return buf;
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
    char buf[32];
    const auto b = static_cast<double>(*bytes);
    if (*bytes >= (1ULL << 30))
        std::snprintf(buf, sizeof(buf), "%.1f GiB", b / double(1ULL << 30));
    else if (*bytes >= (1ULL << 20))
        std::snprintf(buf, sizeof(buf), "%.1f MiB", b / double(1ULL << 20));
    else if (*bytes >= (1ULL << 10))
        std::snprintf(buf, sizeof(buf), "%.0f KiB", b / double(1ULL << 10));
    else
        std::snprintf(buf, sizeof(buf), "%llu B", static_cast<unsigned long long>(*bytes));
    return buf;
}

/// The text frame: one string per line, at most @width columns each (0: no limit).
inline std::vector<std::string> render(const View& v, std::size_t width)
{
    std::vector<std::string> out;
    char buf[512];
    auto add = [&](std::string line) {
        if (width && line.size() > width)
            line.resize(width);
        out.push_back(std::move(line));
    };
    const std::size_t bar_width = width == 0 || width >= 100 ? 30 : 16;

    std::snprintf(buf, sizeof(buf), "tempo-top - %s, interval %.2f s",
                  v.debugfs ? v.debugfs->string().c_str() : "no debugfs (not root?)", v.interval_s);
    add(buf);
    if (v.cus) {
        const auto p = percent(v.cus->busy, static_cast<double>(v.cus->cus));
        std::snprintf(buf, sizeof(buf), "%-12s %s %s %llu/%llu busy", "CU pool",
                      bar(p, bar_width).c_str(), format_percent(p).c_str(),
                      static_cast<unsigned long long>(v.cus->busy),
                      static_cast<unsigned long long>(v.cus->cus));
        add(buf);
        std::snprintf(buf, sizeof(buf),
                      "  below high %llu, reserved for high %llu, high queues with work %llu, "
                      "%s sequencer, %llu workgroups done",
                      static_cast<unsigned long long>(v.cus->busy_below_high),
                      static_cast<unsigned long long>(v.cus->reserved_for_high),
                      static_cast<unsigned long long>(v.cus->high_queues_with_work),
                      v.cus->sequencer.c_str(),
                      static_cast<unsigned long long>(v.cus->workgroups_done));
        add(buf);
    }
    add("");
    if (!v.engines.empty()) {
        std::snprintf(buf, sizeof(buf), "%-12s %-*s %6s %-9s %8s %-9s %11s %7s", "ENGINE/HQD",
                      static_cast<int>(bar_width + 2), "BUSY", "", "STATE", "JOBS/S", "PRIO P/Q",
                      "RPTR/WPTR", "PREEMPT");
        add(buf);
    }
    for (const auto& e : v.engines) {
        std::snprintf(buf, sizeof(buf), "%-12s %s %s %-9s %8.1f", e.name.c_str(),
                      bar(e.busy_percent, bar_width).c_str(),
                      format_percent(e.busy_percent).c_str(), e.state.c_str(), e.jobs_per_s);
        add(buf);
        for (const auto& h : e.hqds) {
            const auto prio =
                std::to_string(h.row.pipe_prio) + "/" + std::to_string(h.row.queue_prio);
            const auto ptrs = std::to_string(h.row.rptr) + "/" + std::to_string(h.row.wptr);
            std::snprintf(buf, sizeof(buf), "  queue %-4u %s %s %-9s %8.1f %-9s %11s %7llu",
                          h.row.queue, bar(h.busy_percent, bar_width).c_str(),
                          format_percent(h.busy_percent).c_str(), h.row.state().c_str(),
                          h.jobs_per_s, prio.c_str(), ptrs.c_str(),
                          static_cast<unsigned long long>(h.row.preemptions));
            add(buf);
        }
    }
    add("");
    const bool with_ctx = v.contexts.has_value();
    std::string header;
    std::snprintf(buf, sizeof(buf), "%7s %-15s %4s", "PID", "COMMAND", "ID");
    header = buf;
    for (const auto cls : engine_classes) {
        std::snprintf(buf, sizeof(buf), " %7s", std::string{cls}.c_str());
        header += buf;
    }
    std::snprintf(buf, sizeof(buf), " %9s %9s", "MEM", "RESIDENT");
    header += buf;
    if (with_ctx) {
        std::snprintf(buf, sizeof(buf), " %4s %-9s %6s", "CTX", "MAX-PRIO", "INFLT");
        header += buf;
    }
    add(header);
    if (v.clients.empty())
        add("  (no tempo clients)");
    for (const auto& c : v.clients) {
        std::snprintf(buf, sizeof(buf), "%7llu %-15.15s %4llu",
                      static_cast<unsigned long long>(c.pid), c.comm.c_str(),
                      static_cast<unsigned long long>(c.id));
        std::string line = buf;
        for (const auto cls : engine_classes) {
            const auto it = c.classes.find(cls);
            const auto p = it == c.classes.end() ? std::nullopt : it->second.busy_percent;
            std::snprintf(buf, sizeof(buf), " %7s", format_percent(p).c_str());
            line += buf;
        }
        std::snprintf(buf, sizeof(buf), " %9s %9s", format_size(c.total_memory).c_str(),
                      format_size(c.resident_memory).c_str());
        line += buf;
        if (with_ctx && c.contexts) {
            std::snprintf(buf, sizeof(buf), " %4llu %-9s %6llu",
                          static_cast<unsigned long long>(c.contexts->count),
                          c.contexts->max_priority.empty() ? "-" : c.contexts->max_priority.c_str(),
                          static_cast<unsigned long long>(c.contexts->in_flight));
            line += buf;
        }
        add(line);
    }
    return out;
}

} // namespace tempo::top
