// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * tempo-top's model: parsers of the debugfs files (hqds, cus, contexts) and
 * of the DRM fdinfo keys, a Sample of all of them at one instant, and the
 * View that two Samples give (busyness over the interval between them);
 * top_output.hpp gives a View its text and JSON forms. No device and no
 * terminal here, so that the unit tests can feed fixture text and fake
 * /proc trees.
 */
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <tempo/types.hpp>

#include "tempo-tooling/parse.hpp"

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
    return tooling::parse_number<std::uint64_t>(text);
}

inline std::optional<std::int64_t> to_i64(std::string_view text)
{
    return tooling::parse_number<std::int64_t>(text);
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
    std::string priority;  ///< its own, as printed: a name or a number
    std::string effective; ///< in force (overrides applied), as printed; empty if not printed
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
    if (const auto p = parse_priority(name))
        return to_uapi(*p);
    return std::nullopt;
}

/// A priority for display: its name ("high") when it is a known uAPI value.
inline std::string priority_name(std::string_view text)
{
    if (const auto n = to_i64(text))
        if (const auto p = priority_from_uapi(*n))
            return to_string(*p);
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

/// Whether @dev (/dev/dri) has a node of the tempo device: a node whose
/// directory in @sys_drm (/sys/class/drm) links to the device "tempo" (the
/// module's platform device). nullopt when @dev cannot be read or sysfs
/// knows none of its nodes.
inline std::optional<bool> has_tempo_node(const std::filesystem::path& dev,
                                          const std::filesystem::path& sys_drm)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    bool nodes = false, known = false;
    fs::directory_iterator it(dev, ec);
    if (ec)
        return ec == std::errc::no_such_file_or_directory ? std::optional<bool>{false}
                                                          : std::nullopt;
    for (const fs::directory_iterator end; !ec && it != end; it.increment(ec)) {
        nodes = true;
        std::error_code lec;
        const auto device = fs::read_symlink(sys_drm / it->path().filename() / "device", lec);
        if (lec)
            continue;
        known = true;
        if (device.filename() == "tempo")
            return true;
    }
    if (!nodes || known)
        return false;
    return std::nullopt;
}

/// @dir and what @ec, the error of reading it, means here.
inline std::string dir_error(const std::filesystem::path& dir, const std::error_code& ec)
{
    if (ec == std::errc::permission_denied || ec == std::errc::operation_not_permitted)
        return dir.string() + ": permission denied (debugfs is root's)";
    return dir.string() + ": " + ec.message();
}

/// Where tempo-top reads: debugfs, /proc, and what tells why debugfs has
/// no tempo directory (/dev/dri, /sys).
struct Sources {
    std::filesystem::path debugfs{"/sys/kernel/debug"};
    std::filesystem::path proc{"/proc"};
    std::filesystem::path dev{"/dev/dri"};
    std::filesystem::path sys{"/sys"};
};

/// Why find_debugfs(@src.debugfs) finds no tempo directory: no tempo node
/// in /dev/dri (the module not loaded, most likely), else the error of
/// reading the debugfs directory (permission denied: not root), else an
/// empty directory (debugfs not mounted there), else no tempo minor in it.
inline std::string debugfs_problem(const Sources& src)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (has_tempo_node(src.dev, src.sys / "class" / "drm") == false)
        return fs::exists(src.sys / "module" / "tempo", ec)
                   ? "tempo module loaded, but no tempo node in " + src.dev.string()
                   : "tempo module not loaded (no tempo node in " + src.dev.string() + ")";
    fs::directory_iterator it(src.debugfs, ec);
    if (ec)
        return dir_error(src.debugfs, ec);
    if (it == fs::directory_iterator{})
        return "debugfs not mounted on " + src.debugfs.string();
    return "no tempo directory below " + src.debugfs.string();
}

// ---------------------------------------------------------------------------
// Samples and views

/// Everything tempo-top reads, at one instant.
struct Sample {
    std::chrono::nanoseconds time{0};
    std::optional<std::filesystem::path> debugfs;
    /// Without debugfs: why (debugfs_problem()).
    std::string debugfs_problem;
    std::vector<HqdRow> hqds;
    std::optional<CuPool> cus;
    std::optional<std::vector<ContextRow>> contexts;
    std::map<std::uint64_t, Client> clients;
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
    } else {
        s.debugfs_problem = debugfs_problem(src);
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
    /// The highest priority in force of its contexts, by name when known.
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
    /// Without debugfs: why.
    std::string debugfs_problem;
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

/// Queue @h of @now against its row in @before, over @interval_ns.
inline HqdView hqd_view(const HqdRow& h, const std::vector<HqdRow>& before, double interval_ns)
{
    HqdView hv;
    hv.row = h;
    const auto old = std::find_if(before.begin(), before.end(), [&](const HqdRow& o) {
        return o.engine == h.engine && o.queue == h.queue;
    });
    if (old != before.end()) {
        hv.done_delta = delta(h.done, old->done);
        if (h.busy_ns && old->busy_ns)
            hv.busy_percent = percent(delta(*h.busy_ns, *old->busy_ns), interval_ns);
    }
    hv.jobs_per_s = interval_ns > 0 ? static_cast<double>(hv.done_delta) * 1e9 / interval_ns : 0;
    return hv;
}

/// An engine's totals from its queues: one command processor per engine,
/// so its queues' busy shares add up.
inline void sum_queues(EngineView& e)
{
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
    if (all_timed && !e.hqds.empty())
        e.busy_percent = std::min(busy, 100.0);
}

/// The engines of @now, their queues in the order of the hqds file.
inline std::vector<EngineView> engine_views(const Sample& before, const Sample& now,
                                            double interval_ns)
{
    std::vector<EngineView> engines;
    for (const auto& h : now.hqds) {
        auto e = std::find_if(engines.begin(), engines.end(),
                              [&](const EngineView& x) { return x.name == h.engine; });
        if (e == engines.end()) {
            engines.emplace_back().name = h.engine;
            e = std::prev(engines.end());
        }
        e->hqds.push_back(hqd_view(h, before.hqds, interval_ns));
    }
    for (auto& e : engines)
        sum_queues(e);
    return engines;
}

/// The busy share of each engine class of client @c; none for a class
/// @old (the client in the sample before) did not report.
inline std::map<std::string, ClassUsage, std::less<>>
class_usage(const Client& c, const Client* old, double interval_ns)
{
    std::map<std::string, ClassUsage, std::less<>> classes;
    for (const auto& [cls, ns] : c.info.engine_ns) {
        ClassUsage u;
        u.busy_ns = ns;
        if (const auto cap = c.info.capacity.find(cls); cap != c.info.capacity.end())
            u.capacity = cap->second ? cap->second : 1;
        if (old)
            if (const auto o = old->info.engine_ns.find(cls); o != old->info.engine_ns.end())
                u.busy_percent =
                    percent(delta(ns, o->second), interval_ns * static_cast<double>(u.capacity));
        classes.emplace(cls, u);
    }
    return classes;
}

/// The priority @ctx runs at: its effective one (after the overrides of
/// DRM_IOCTL_TEMPO_SCHED, on its own or on its file), else, from a kernel
/// without that column, its own.
inline const std::string& priority_in_force(const ContextRow& ctx)
{
    return ctx.effective.empty() ? ctx.priority : ctx.effective;
}

/// The contexts of client @id: how many, the highest priority in force,
/// jobs in flight.
inline ClientContexts client_contexts(const std::vector<ContextRow>& contexts, std::uint64_t id)
{
    ClientContexts cc;
    std::optional<std::int64_t> best;
    for (const auto& ctx : contexts) {
        if (ctx.client != id)
            continue;
        cc.count++;
        cc.in_flight += ctx.in_flight;
        cc.banned += ctx.banned ? 1 : 0;
        const auto& text = priority_in_force(ctx);
        const auto p = priority_value(text);
        if (cc.max_priority.empty() || (p && (!best || *p > *best))) {
            cc.max_priority = priority_name(text);
            best = p;
        }
    }
    return cc;
}

inline std::vector<ClientView> client_views(const Sample& before, const Sample& now,
                                            double interval_ns)
{
    std::vector<ClientView> clients;
    for (const auto& [id, c] : now.clients) {
        const auto old = before.clients.find(id);
        ClientView cv{.id = id,
                      .pid = c.pid,
                      .comm = c.comm,
                      .classes = class_usage(
                          c, old == before.clients.end() ? nullptr : &old->second, interval_ns),
                      .total_memory = c.info.total_memory,
                      .resident_memory = c.info.resident_memory,
                      .contexts = std::nullopt};
        if (now.contexts)
            cv.contexts = client_contexts(*now.contexts, id);
        clients.push_back(std::move(cv));
    }
    return clients;
}

/// What happened between @before and @now.
inline View compute_view(const Sample& before, const Sample& now)
{
    const auto interval_ns = static_cast<double>((now.time - before.time).count());
    return View{.interval_s = interval_ns / 1e9,
                .debugfs = now.debugfs,
                .debugfs_problem = now.debugfs_problem,
                .engines = engine_views(before, now, interval_ns),
                .cus = now.cus,
                .contexts = now.contexts,
                .clients = client_views(before, now, interval_ns)};
}

} // namespace tempo::top
