// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * tempo-bench latency: the report of a run, as tables, as JSON, and as the
 * --hist plot of the latency distributions.
 */
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "latency.hpp"
#include "tempo-tooling/json.hpp"
#include "tempo-tooling/plot.hpp"

namespace tempo::bench::latency {

namespace {

using tooling::Json;

unsigned long long ull(std::uint64_t v)
{
    return static_cast<unsigned long long>(v);
}

std::string fmt_ratio(const std::optional<double>& r)
{
    if (!r)
        return "-";
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.2fx", *r);
    return buf;
}

const char* verdict(double ratio)
{
    if (ratio <= target_ratio)
        return "meets the target";
    return ratio <= bar_ratio ? "meets the bar" : "ABOVE the bar";
}

/// The largest p99/p90 of the idle rows: how much of the idle tail is outliers.
double idle_tail(const std::vector<Case>& cases)
{
    double tail = 0;
    for (const Case& c : cases)
        if (!c.loaded && c.p90_us > 0)
            tail = std::max(tail, c.us.p99 / c.p90_us);
    return tail;
}

/// The parts of a round trip, as the tables and the JSON name them.
constexpr std::pair<const char*, double Sample::*> parts[] = {
    {"submit_ioctl", &Sample::submit},      {"to_first_packet", &Sample::to_start},
    {"to_hw_queue", &Sample::to_queue},     {"in_hw_queue", &Sample::in_queue},
    {"waits_behind_jobs", &Sample::waited}, {"batch_run", &Sample::run},
    {"to_wake_up", &Sample::to_wake},
};

void print_setup(const Setup& s)
{
    std::printf("tempo-bench latency: submit to fence signalled, probes on %s, device %s\n",
                s.engine.c_str(), s.device.c_str());
    std::printf("  probes: nop = NOP; dispatch = DISPATCH FILL, 1 group x 4 KiB; each between two "
                "WRITE_TIMESTAMPs;\n          floor = no job: a null ioctl, then two helper "
                "threads woken in turn, the last "
                "waking the prober\n");
    std::printf("  load: a process per engine of %s, each a LOW and a NORMAL context keeping %u "
                "jobs queued: SPIN (%u groups x %u ms) on gfx and compute, a %u ms WAIT_MEM on "
                "copy\n",
                s.load_engines.c_str(), load_depth, s.num_cus, s.load_ms, s.load_ms);
    std::printf("  module: cu_by_priority=%s (CU sequencer %s), cu_reserved=%s, hqd_policy=%s, "
                "starve_ms=%s\n",
                s.cu_by_priority.value_or("?").c_str(),
                sequencer_by_priority(s) ? "follows queue priority" : "picks at random",
                s.cu_reserved.value_or("?").c_str(), s.hqd_policy.value_or("?").c_str(),
                s.starve_ms.value_or("?").c_str());
    std::printf("  samples: %llu per row in %llu idle and %llu loaded phases, alternating; probes "
                "%llu us apart on average; %llu warm-up rounds first\n",
                ull(s.samples), ull(s.blocks), ull(s.blocks), ull(s.gap_us), ull(s.warmup));
    if (!s.high_refused.empty())
        std::printf("  HIGH priority rows skipped: %s\n", s.high_refused.c_str());
}

void print_cases(const std::vector<Case>& cases)
{
    std::printf("\n%-42s %-8s %-6s %7s %6s %10s %10s %10s %10s %9s\n", "case", "probe", "prio",
                "samples", "failed", "p50_us", "p90_us", "p99_us", "max_us", "p99/idle");
    for (const Case& c : cases)
        std::printf("%-42s %-8s %-6s %7zu %6zu %10.1f %10.1f %10.1f %10.1f %9s\n", c.label.c_str(),
                    to_cstr(c.kind), to_string(c.priority).c_str(), c.us.count, c.failures(),
                    c.us.p50, c.p90_us, c.us.p99, c.us.max, fmt_ratio(c.ratio).c_str());
    for (const Case& c : cases)
        if (c.failures())
            std::printf("WARNING: %zu %s probes of \"%s\" failed (%s): they count with the time "
                        "their fence took\n",
                        c.failures(), to_cstr(c.kind), c.label.c_str(),
                        std::strerror(-c.first_error()));
}

void print_parts(const std::vector<Case>& cases)
{
    std::printf("\nwhere the time goes, p50 / p99 in us (to HW queue: submit to the job in its "
                "HQD's ring; in HW queue: from there to the first packet; waits: behind other "
                "jobs, by right of their priority, within \"in HW queue\" but for the waits for "
                "CUs, in the batch run):\n");
    std::printf("%-42s %-8s %-6s %15s %17s %17s %17s %17s %17s %17s\n", "case", "probe", "prio",
                "submit ioctl", "to first packet", "(to HW queue)", "(in HW queue)", "(waits)",
                "batch run", "to wake-up");
    for (const Case& c : cases) {
        std::printf("%-42s %-8s %-6s", c.label.c_str(), to_cstr(c.kind),
                    to_string(c.priority).c_str());
        for (const auto& [name, field] : parts) {
            const tooling::Summary p = c.part(field);
            char cell[48];
            std::snprintf(cell, sizeof(cell), "%.0f / %.0f", p.p50, p.p99);
            std::printf(" %*s", field == &Sample::submit ? 15 : 17, cell);
        }
        std::printf("\n");
    }
}

void print_load(const Setup& s)
{
    std::printf("\nCPUs: %u, busy %.0f%% during the idle phases and %.0f%% during the loaded "
                "phases\n",
                s.cpus, s.idle_cpu.percent(), s.load_cpu.percent());
    std::printf("load: %llu jobs completed during the loaded phases; a queue ran dry %llu times\n",
                ull(s.load.completed), ull(s.load.ran_dry));
    if (!s.load.failed)
        return;
    std::printf("WARNING: %llu load jobs failed (%s) and %llu were cancelled behind them; "
                "their contexts were created again; failures by stream:",
                ull(s.load.failed), std::strerror(-s.load.first_error), ull(s.load.cancelled));
    for (std::size_t i = 0; i < s.load.failed_per_stream.size(); i++)
        if (s.load.failed_per_stream[i] && i < s.stream_names.size())
            std::printf(" %s %llu", s.stream_names[i].c_str(), ull(s.load.failed_per_stream[i]));
    std::printf("\n");
}

void print_ratios(const std::vector<Case>& cases)
{
    std::printf("\nbusy/idle (the same probe at the same priority on idle hardware):\n");
    std::printf("  %-42s %-8s %8s %8s %8s\n", "case", "probe", "p50", "p90", "p99");
    for (const Case& c : cases) {
        if (!c.ratio)
            continue;
        std::printf("  %-42s %-8s %7.2fx %7.2fx %8s", c.label.c_str(), to_cstr(c.kind), c.ratio_p50,
                    c.ratio_p90, fmt_ratio(c.ratio).c_str());
        if (c.priority > Priority::Normal)
            std::printf("   p99 %s (bar <= %.2fx, target <= %.2fx)", verdict(*c.ratio), bar_ratio,
                        target_ratio);
        std::printf("\n");
    }
}

/// The loaded row of @kind at @prio, if the run has one.
const Case* loaded_case(const std::vector<Case>& cases, ProbeKind kind, Priority prio)
{
    for (const Case& c : cases)
        if (c.loaded && c.kind == kind && c.priority == prio && c.ratio)
            return &c;
    return nullptr;
}

/// HIGH's NOP under load against the floor's rise under the same load.
void print_floor(const std::vector<Case>& cases)
{
    const Case* floor = loaded_case(cases, ProbeKind::Floor, Priority::Normal);
    const Case* high = loaded_case(cases, ProbeKind::Nop, Priority::High);
    if (!floor || !high)
        return;
    std::printf("\nunder the load, the floor (no job) took %.2fx its idle time at p50 and HIGH's "
                "NOP %.2fx: the floor's rise\n  is the machine's (its ioctls and wake-ups under "
                "the load); what the load adds to HIGH's NOP\n  beyond it: %.2fx\n",
                floor->ratio_p50, high->ratio_p50, high->ratio_p50 / floor->ratio_p50);
}

void print_notes(const Setup& s, const std::vector<Case>& cases)
{
    if (const double tail = idle_tail(cases); tail > 3)
        std::printf("note: on idle hardware p99 is up to %.0fx p90 here, a tail that the submit "
                    "ioctl alone shows too: the\n  machine's own noise (vCPUs descheduled by the "
                    "host). A p99 ratio is then mostly noise over noise;\n  the p50 and p90 "
                    "ratios show what the load costs.\n",
                    tail);
    if (sequencer_by_priority(s))
        std::printf(
            "\nCase (d), the CU sequencer ignoring priorities, needs the module loaded with "
            "cu_by_priority=0:\n  tools/vm/run --modparams cu_by_priority=0 -- "
            "build/cmake/tools/tempo-bench/tempo-bench latency\n");
    if (!s.plot_script.empty())
        std::printf("\nlatency distributions (CDF) written to %s; gnuplot %s draws them\n",
                    s.plot_data.c_str(), s.plot_script.c_str());
}

Json module_json(const Setup& s)
{
    Json module = Json::object();
    for (const auto& [name, value] :
         {std::pair{"cu_by_priority", s.cu_by_priority}, std::pair{"cu_reserved", s.cu_reserved},
          std::pair{"hqd_policy", s.hqd_policy}, std::pair{"starve_ms", s.starve_ms}})
        if (value)
            module[name] = *value;
    return module;
}

Json case_json(const Case& c)
{
    Json j = {{"label", c.label},
              {"probe", to_cstr(c.kind)},
              {"priority", to_string(c.priority)},
              {"loaded", c.loaded},
              {"count", c.us.count},
              {"failed", c.failures()},
              {"mean_us", tooling::number(c.us.mean)},
              {"p50_us", tooling::number(c.us.p50)},
              {"p90_us", tooling::number(c.p90_us)},
              {"p99_us", tooling::number(c.us.p99)},
              {"min_us", tooling::number(c.us.min)},
              {"max_us", tooling::number(c.us.max)}};
    if (c.ratio) {
        j["p50_over_idle"] = tooling::number(c.ratio_p50);
        j["p90_over_idle"] = tooling::number(c.ratio_p90);
        j["p99_over_idle"] = tooling::number(*c.ratio);
    }
    for (const auto& [name, field] : parts) {
        const tooling::Summary p = c.part(field);
        j[name] = {{"p50_us", tooling::number(p.p50)},
                   {"p99_us", tooling::number(p.p99)},
                   {"max_us", tooling::number(p.max)}};
    }
    return j;
}

Json load_json(const LoadStats& load)
{
    return {{"completed", load.completed},
            {"ran_dry", load.ran_dry},
            {"failed", load.failed},
            {"first_error", load.first_error},
            {"cancelled", load.cancelled}};
}

Json report_json(const Setup& s, const std::vector<Case>& cases)
{
    Json j = {{"benchmark", "latency"},
              {"device", s.device},
              {"engine", s.engine},
              {"samples", s.samples},
              {"warmup", s.warmup},
              {"gap_us", s.gap_us},
              {"blocks", s.blocks},
              {"load_ms", s.load_ms},
              {"load_depth", load_depth},
              {"load_engines", s.load_engines},
              {"num_cus", s.num_cus},
              {"module", module_json(s)},
              {"sequencer_by_priority", sequencer_by_priority(s)}};
    if (!s.high_refused.empty())
        j["high_refused"] = s.high_refused;
    Json results = Json::object();
    for (const Case& c : cases)
        results[c.key] = case_json(c);
    j["results"] = std::move(results);
    j["load"] = load_json(s.load);
    j["cpus"] = s.cpus;
    j["idle_cpu_busy_percent"] = tooling::number(s.idle_cpu.percent());
    j["load_cpu_busy_percent"] = tooling::number(s.load_cpu.percent());
    j["idle_p99_over_p90_max"] = tooling::number(idle_tail(cases));
    j["bar_ratio"] = bar_ratio;
    j["target_ratio"] = target_ratio;
    if (!s.plot_script.empty())
        j["plot"] = {{"data", s.plot_data}, {"script", s.plot_script}};
    return j;
}

} // namespace

void print_report(const Setup& s, const std::vector<Case>& cases, bool json)
{
    if (json) {
        tooling::print(report_json(s, cases));
    } else {
        print_setup(s);
        print_cases(cases);
        print_parts(cases);
        print_load(s);
        print_ratios(cases);
        print_floor(cases);
        print_notes(s, cases);
    }
    std::fflush(stdout);
}

void write_hist(const std::string& path, Setup& s, const std::vector<Case>& cases)
{
    plot::Figure figure;
    figure.title = "tempo-bench latency on " + s.engine + ": submit to fence signalled";
    figure.subtitle = "load: LOW+NORMAL SPIN jobs (" + std::to_string(s.num_cus) + " x " +
                      std::to_string(s.load_ms) + " ms) on every gfx and compute engine; " +
                      "CU sequencer " + (sequencer_by_priority(s) ? "by priority" : "at random") +
                      "; " + std::to_string(s.samples) + " samples per case";
    figure.kind = plot::Kind::Cdf;
    // Idle dashed, loaded solid; one colour per probe and priority.
    const auto color = [](const Case& c) {
        const bool high = c.priority > Priority::Normal;
        if (c.kind == ProbeKind::Floor)
            return "#7f7f7f";
        if (c.kind == ProbeKind::Nop)
            return high ? "#1f77b4" : "#d62728";
        return high ? "#2ca02c" : "#ff7f0e";
    };
    for (const Case& c : cases) {
        const std::string label = c.loaded ? c.label.substr(0, c.label.find(", sequencer"))
                                           : c.label + ", " + to_string(c.priority);
        figure.series.push_back({.label = label + ", " + to_cstr(c.kind),
                                 .values_us = c.totals_us(),
                                 .color = color(c),
                                 .dashed = !c.loaded});
    }
    const plot::Files files = plot::write_plot(path, figure);
    s.plot_data = files.data;
    s.plot_script = files.script;
}

} // namespace tempo::bench::latency
