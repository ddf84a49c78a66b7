// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * tempo-top's model on fixture text: the debugfs parsers, fdinfo over a
 * fake /proc tree, the busy shares of two samples, the JSON fields and the
 * text frame.
 * No device needed.
 */
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include "temp_dir.hpp"
#include "terminal.hpp"
#include "top.hpp"
#include "top_output.hpp"

namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using namespace tempo::top;

// As the kernel prints it: "%-7s%-3u" splits "gfx0" into "gfx    0".
constexpr std::string_view hqds_old =
    "engine     queue pipe_prio queue_prio active running preempted rptr wptr done preemptions\n"
    "gfx    0      0         1          8      1       0         0    4    4    4           0\n"
    "compute0      0         1          8      1       1         0   10   12   10           0\n"
    "compute0      1         2         15      1       0         1    3    5    3           2\n"
    "copy   0      0         1          8      0       0         0    0    0    0           0\n";

std::string hqds_busy(std::uint64_t gfx, std::uint64_t c0, std::uint64_t c1, std::uint64_t done0)
{
    std::ostringstream s;
    s << "engine     queue pipe_prio queue_prio active running preempted rptr wptr done "
         "preemptions busy_ns\n"
      << "gfx    0      0         1          8      1       0         0    4    4    4     0 "
      << gfx << "\n"
      << "compute0      0         1          8      1       1         0   10   12 " << done0
      << "     0 " << c0 << "\n"
      << "compute0      1         2         15      1       0         1    3    5    3     2 " << c1
      << "\n";
    return s.str();
}

constexpr std::string_view cus_text = "cus: 8\n"
                                      "busy: 6\n"
                                      "busy_below_high: 4\n"
                                      "reserved_for_high: 2\n"
                                      "high_queues_with_work: 1\n"
                                      "sequencer: priority\n"
                                      "workgroups_done: 1234\n";

std::string fdinfo(std::uint64_t id, std::uint64_t compute_ns, std::string_view total = "4 MiB",
                   std::string_view driver = "tempo")
{
    std::ostringstream s;
    s << "pos:\t0\nflags:\t02100002\nmnt_id:\t26\nino:\t123\n"
      << "drm-driver:\t" << driver << "\n"
      << "drm-client-id:\t" << id << "\n"
      << "drm-pdev:\t0000:00:00.0\n"
      << "drm-engine-gfx:\t0 ns\n"
      << "drm-engine-capacity-gfx:\t1\n"
      << "drm-engine-compute:\t" << compute_ns << " ns\n"
      << "drm-engine-capacity-compute:\t2\n"
      << "drm-engine-copy:\t0 ns\n"
      << "drm-engine-capacity-copy:\t1\n"
      << "drm-total-memory:\t" << total << "\n"
      << "drm-shared-memory:\t0\n"
      << "drm-resident-memory:\t512 KiB\n";
    return s.str();
}

using tempo_test::TempDir;

TEST(TopParse, HqdsWithoutBusyNs)
{
    const auto rows = parse_hqds(hqds_old);
    ASSERT_EQ(rows.size(), 4U);
    EXPECT_EQ(rows[0].engine, "gfx0");
    EXPECT_EQ(rows[1].engine, "compute0");
    EXPECT_EQ(rows[2].queue, 1U);
    EXPECT_EQ(rows[2].pipe_prio, 2U);
    EXPECT_EQ(rows[2].queue_prio, 15U);
    EXPECT_EQ(rows[2].preemptions, 2U);
    EXPECT_EQ(rows[3].engine, "copy0");
    EXPECT_FALSE(rows[0].busy_ns.has_value());
    EXPECT_EQ(rows[0].state(), "idle");
    EXPECT_EQ(rows[1].state(), "running");
    EXPECT_EQ(rows[2].state(), "preempted");
    EXPECT_EQ(rows[3].state(), "off");
}

TEST(TopParse, HqdsByHeaderNameInAnyOrder)
{
    const auto rows = parse_hqds("busy_ns done queue engine running wptr rptr active\n"
                                 "   5000   7     2 compute1       0    9    8      1\n");
    ASSERT_EQ(rows.size(), 1U);
    EXPECT_EQ(rows[0].engine, "compute1");
    EXPECT_EQ(rows[0].queue, 2U);
    EXPECT_EQ(rows[0].done, 7U);
    ASSERT_TRUE(rows[0].busy_ns.has_value());
    EXPECT_EQ(*rows[0].busy_ns, 5000U);
    EXPECT_EQ(rows[0].state(), "queued");
}

TEST(TopParse, Cus)
{
    const auto p = parse_cus(cus_text);
    ASSERT_TRUE(p.has_value());
    EXPECT_EQ(p->cus, 8U);
    EXPECT_EQ(p->busy, 6U);
    EXPECT_EQ(p->busy_below_high, 4U);
    EXPECT_EQ(p->reserved_for_high, 2U);
    EXPECT_EQ(p->high_queues_with_work, 1U);
    EXPECT_EQ(p->sequencer, "priority");
    EXPECT_EQ(p->workgroups_done, 1234U);
    EXPECT_FALSE(parse_cus("").has_value());
}

TEST(TopParse, Contexts)
{
    const auto rows = parse_contexts("client pid ctx priority effective banned in_flight\n"
                                     "     5  42   1   normal    normal      0         3\n"
                                     "     5  42   2     high      high      1         0\n");
    ASSERT_EQ(rows.size(), 2U);
    EXPECT_EQ(rows[0].client, 5U);
    EXPECT_EQ(rows[0].pid, 42U);
    EXPECT_EQ(rows[1].ctx, 2U);
    EXPECT_EQ(rows[1].priority, "high");
    EXPECT_TRUE(rows[1].banned);
    EXPECT_EQ(rows[0].in_flight, 3U);
    EXPECT_EQ(priority_value("very_high"), 1023);
    EXPECT_EQ(priority_value("-512"), -512);
    EXPECT_FALSE(priority_value("bogus").has_value());
}

TEST(TopParse, Sizes)
{
    EXPECT_EQ(parse_size("4 MiB"), 4U << 20);
    EXPECT_EQ(parse_size("512 KiB"), 512U << 10);
    EXPECT_EQ(parse_size("1 GiB"), 1ULL << 30);
    EXPECT_EQ(parse_size("123"), 123U);
    EXPECT_EQ(parse_size("77 B"), 77U);
    EXPECT_FALSE(parse_size("lots").has_value());
}

TEST(TopParse, Fdinfo)
{
    const auto f = parse_fdinfo(fdinfo(7, 1500));
    ASSERT_TRUE(f.has_value());
    EXPECT_EQ(f->client_id, 7U);
    EXPECT_EQ(f->engine_ns.at("compute"), 1500U);
    EXPECT_EQ(f->engine_ns.at("gfx"), 0U);
    EXPECT_EQ(f->capacity.at("compute"), 2U);
    EXPECT_FALSE(f->engine_ns.contains("capacity-compute"));
    EXPECT_EQ(f->total_memory, 4U << 20);
    EXPECT_EQ(f->resident_memory, 512U << 10);
    EXPECT_FALSE(parse_fdinfo(fdinfo(7, 1500, "4 MiB", "i915")).has_value());
    EXPECT_FALSE(parse_fdinfo("pos:\t0\nflags:\t0\n").has_value());
}

TEST(TopProc, ScanGroupsByClientId)
{
    TempDir proc;
    proc.write("100/comm", "worker\n");
    proc.write("100/fdinfo/3", fdinfo(7, 10));
    proc.write("100/fdinfo/4", fdinfo(7, 10)); // the same file, dup'ed
    proc.write("100/fdinfo/5", "pos:\t0\nflags:\t0\n");
    proc.write("90/comm", "parent\n");
    proc.write("90/fdinfo/9", fdinfo(7, 10)); // inherited over fork
    proc.write("200/comm", "other\n");
    proc.write("200/fdinfo/3", fdinfo(8, 20, "100"));
    proc.write("300/fdinfo/3", fdinfo(9, 20, "1 MiB", "i915"));
    proc.write("self/fdinfo/3", fdinfo(10, 20));

    const auto clients = scan_clients(proc.path());
    ASSERT_EQ(clients.size(), 2U);
    EXPECT_EQ(clients.at(7).pid, 90U);
    EXPECT_EQ(clients.at(7).comm, "parent");
    EXPECT_EQ(clients.at(8).pid, 200U);
    EXPECT_EQ(clients.at(8).comm, "other");
    EXPECT_EQ(clients.at(8).info.total_memory, 100U);
}

TEST(TopDebugfs, FindsTheTempoMinor)
{
    TempDir d;
    d.write("dri/0/name", "i915 dev=0000:00:02.0 unique=0000:00:02.0\n");
    d.write("dri/1/name", "tempo dev=tempo unique=tempo\n");
    d.write("dri/1/hqds", hqds_old);
    d.write("dri/128/name", "tempo dev=tempo unique=tempo\n");
    EXPECT_EQ(find_debugfs(d.path()), d.path() / "dri" / "1");
    EXPECT_EQ(find_debugfs(d.path() / "dri"), d.path() / "dri" / "1");
    EXPECT_EQ(find_debugfs(d.path() / "dri" / "1"), d.path() / "dri" / "1");
    EXPECT_FALSE(find_debugfs(d.path() / "dri" / "0").has_value());
}

/// A fake /dev/dri node @name whose sysfs device is @device.
void add_node(const TempDir& d, const std::string& name, const std::string& device)
{
    d.write("dev/dri/" + name, "");
    fs::create_directories(d.path() / "sys/class/drm" / name);
    fs::create_directory_symlink("../../../devices/" + device,
                                 d.path() / "sys/class/drm" / name / "device");
}

Sources fake_sources(const TempDir& d)
{
    return {.debugfs = d.path() / "debug",
            .proc = d.path() / "proc",
            .dev = d.path() / "dev/dri",
            .sys = d.path() / "sys"};
}

TEST(TopDebugfs, WhyNoModule)
{
    TempDir d;
    const auto src = fake_sources(d);
    d.write("debug/dri/0/name", "i915 dev=0000:00:02.0 unique=0000:00:02.0\n");
    // No /dev/dri at all, then only another driver's nodes.
    EXPECT_EQ(has_tempo_node(src.dev, src.sys / "class/drm"), false);
    EXPECT_EQ(debugfs_problem(src),
              "tempo module not loaded (no tempo node in " + src.dev.string() + ")");
    add_node(d, "card0", "pci0000:00/0000:00:02.0");
    add_node(d, "renderD128", "pci0000:00/0000:00:02.0");
    EXPECT_EQ(has_tempo_node(src.dev, src.sys / "class/drm"), false);
    EXPECT_EQ(debugfs_problem(src),
              "tempo module not loaded (no tempo node in " + src.dev.string() + ")");
    d.write("sys/module/tempo/refcnt", "0\n");
    EXPECT_EQ(debugfs_problem(src),
              "tempo module loaded, but no tempo node in " + src.dev.string());

    // The sample says why, and so do the frame and the JSON.
    const auto s = take_sample(src, 1s);
    EXPECT_FALSE(s.debugfs.has_value());
    EXPECT_EQ(s.debugfs_problem, debugfs_problem(src));
    const auto v = compute_view(s, s);
    EXPECT_EQ(render(v, 0)[0].find("tempo-top - no device data: tempo module loaded"), 0U)
        << render(v, 0)[0];
    std::ostringstream json;
    write_json(v, json, 1000);
    EXPECT_EQ(nlohmann::json::parse(json.str())["debugfs_error"], debugfs_problem(src));
}

/// debugfs_problem(@src) as a user the debugfs directory (0700, as
/// /sys/kernel/debug is root's) keeps out: nobody when this is root, else
/// this user, the directory's permissions taken away meanwhile.
std::string problem_as_other_user(const Sources& src)
{
    if (::geteuid() != 0) {
        fs::permissions(src.debugfs, fs::perms::none);
        auto problem = debugfs_problem(src);
        fs::permissions(src.debugfs, fs::perms::owner_all);
        return problem;
    }
    int fds[2];
    if (::pipe(fds) != 0)
        return "pipe failed";
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(fds[0]);
        if (::setgid(65534) != 0 || ::setuid(65534) != 0)
            ::_exit(1);
        const auto problem = debugfs_problem(src);
        const bool written =
            ::write(fds[1], problem.data(), problem.size()) == static_cast<ssize_t>(problem.size());
        ::_exit(written ? 0 : 1);
    }
    ::close(fds[1]);
    std::string out;
    char buf[256];
    for (ssize_t n; (n = ::read(fds[0], buf, sizeof(buf))) > 0;)
        out.append(buf, static_cast<std::size_t>(n));
    ::close(fds[0]);
    ::waitpid(pid, nullptr, 0);
    return out;
}

TEST(TopDebugfs, WhyNoDebugfs)
{
    TempDir d;
    const auto src = fake_sources(d);
    add_node(d, "card0", "pci0000:00/0000:00:02.0");
    add_node(d, "card1", "platform/tempo");
    add_node(d, "renderD129", "platform/tempo");
    d.write("dev/dri/by-path/platform-tempo-card", "");
    EXPECT_EQ(has_tempo_node(src.dev, src.sys / "class/drm"), true);

    EXPECT_EQ(debugfs_problem(src), src.debugfs.string() + ": No such file or directory");
    fs::create_directories(src.debugfs); // what /sys/kernel/debug is, unmounted
    EXPECT_EQ(debugfs_problem(src), "debugfs not mounted on " + src.debugfs.string());
    d.write("debug/dri/0/name", "i915 dev=0000:00:02.0 unique=0000:00:02.0\n");
    EXPECT_EQ(debugfs_problem(src), "no tempo directory below " + src.debugfs.string());

    EXPECT_EQ(dir_error("/sys/kernel/debug", std::make_error_code(std::errc::permission_denied)),
              "/sys/kernel/debug: permission denied (debugfs is root's)");
    // debugfs is root's (0700): what another user reads.
    fs::permissions(d.path(), fs::perms::others_read | fs::perms::others_exec,
                    fs::perm_options::add);
    fs::permissions(src.debugfs, fs::perms::owner_all);
    EXPECT_EQ(problem_as_other_user(src),
              src.debugfs.string() + ": permission denied (debugfs is root's)");

    // No sysfs to tell: the debugfs directory's own error.
    fs::remove_all(d.path() / "sys");
    EXPECT_FALSE(has_tempo_node(src.dev, src.sys / "class/drm").has_value());
    EXPECT_EQ(debugfs_problem(src), "no tempo directory below " + src.debugfs.string());
}

Sample sample_at(std::chrono::nanoseconds t, std::string_view hqds, std::uint64_t compute_ns)
{
    Sample s;
    s.time = t;
    s.debugfs = "/fake";
    s.hqds = parse_hqds(hqds);
    s.cus = parse_cus(cus_text);
    Client c;
    c.info = *parse_fdinfo(fdinfo(7, compute_ns));
    c.pid = 42;
    c.comm = "spinner";
    s.clients.emplace(7, c);
    return s;
}

TEST(TopView, BusyFromBusyNs)
{
    // 500 ms apart: compute0 spent 250 ms on queue 0 and 100 ms on queue 1.
    const auto a = sample_at(1s, hqds_busy(0, 1'000'000, 0, 10), 0);
    const auto b = sample_at(1500ms, hqds_busy(0, 251'000'000, 100'000'000, 20), 500'000'000);
    const auto v = compute_view(a, b);
    EXPECT_DOUBLE_EQ(v.interval_s, 0.5);
    ASSERT_EQ(v.engines.size(), 2U);
    EXPECT_EQ(v.engines[0].name, "gfx0");
    EXPECT_EQ(v.engines[0].state, "idle");
    ASSERT_TRUE(v.engines[0].busy_percent.has_value());
    EXPECT_DOUBLE_EQ(*v.engines[0].busy_percent, 0.0);
    const auto& c = v.engines[1];
    EXPECT_EQ(c.name, "compute0");
    EXPECT_EQ(c.state, "running");
    ASSERT_EQ(c.hqds.size(), 2U);
    EXPECT_DOUBLE_EQ(*c.hqds[0].busy_percent, 50.0);
    EXPECT_DOUBLE_EQ(*c.hqds[1].busy_percent, 20.0);
    EXPECT_DOUBLE_EQ(*c.busy_percent, 70.0);
    EXPECT_EQ(c.hqds[0].done_delta, 10U);
    EXPECT_DOUBLE_EQ(c.hqds[0].jobs_per_s, 20.0);

    // 500 ms of compute over 500 ms x 2 engines: 50 %.
    ASSERT_EQ(v.clients.size(), 1U);
    const auto& u = v.clients[0].classes.at("compute");
    EXPECT_EQ(u.capacity, 2U);
    EXPECT_DOUBLE_EQ(*u.busy_percent, 50.0);
    EXPECT_DOUBLE_EQ(*v.clients[0].classes.at("gfx").busy_percent, 0.0);
    EXPECT_FALSE(v.clients[0].contexts.has_value());
}

TEST(TopView, WithoutBusyNsActivityComesFromDone)
{
    auto a = sample_at(1s, hqds_old, 0);
    auto b = sample_at(2s, hqds_old, 0);
    b.hqds[1].done += 25;
    const auto v = compute_view(a, b);
    ASSERT_EQ(v.engines.size(), 3U);
    EXPECT_FALSE(v.engines[1].busy_percent.has_value());
    EXPECT_EQ(v.engines[1].done_delta, 25U);
    EXPECT_DOUBLE_EQ(v.engines[1].jobs_per_s, 25.0);
    EXPECT_EQ(v.engines[2].state, "off");
}

TEST(TopView, NewClientHasNoRateYetAndContextsGroup)
{
    auto a = sample_at(1s, hqds_old, 0);
    a.clients.clear();
    auto b = sample_at(2s, hqds_old, 900);
    b.contexts = parse_contexts("client pid ctx priority effective banned in_flight\n"
                                "7 42 1 low low 0 2\n"
                                "7 42 2 high high 0 3\n"
                                "8 43 1 very-high very-high 0 9\n");
    const auto v = compute_view(a, b);
    ASSERT_EQ(v.clients.size(), 1U);
    EXPECT_FALSE(v.clients[0].classes.at("compute").busy_percent.has_value());
    ASSERT_TRUE(v.clients[0].contexts.has_value());
    EXPECT_EQ(v.clients[0].contexts->count, 2U);
    EXPECT_EQ(v.clients[0].contexts->max_priority, "high");
    EXPECT_EQ(v.clients[0].contexts->in_flight, 5U);

    // As the kernel prints them: uAPI numbers.
    b.contexts = parse_contexts("client pid ctx priority effective banned in_flight\n"
                                "7 42 1 -512 -512 0 2\n"
                                "7 42 2 512 512 1 0\n");
    const auto n = compute_view(a, b);
    EXPECT_EQ(n.clients[0].contexts->max_priority, "high");
    EXPECT_EQ(n.clients[0].contexts->banned, 1U);
    EXPECT_EQ(priority_name("1023"), "very-high");
    EXPECT_EQ(priority_name("7"), "7");
}

TEST(TopView, MaxPriorityIsTheOneInForce)
{
    const auto a = sample_at(1s, hqds_old, 0);
    auto b = sample_at(2s, hqds_old, 0);
    // A compositor's normal context raised to high by DRM_IOCTL_TEMPO_SCHED,
    // as the kernel prints it: its own priority, then the one in force.
    b.contexts = parse_contexts("client pid ctx priority effective banned in_flight\n"
                                "7 42 1 0 512 0 0\n"
                                "7 42 2 -512 -512 0 0\n");
    EXPECT_EQ(compute_view(a, b).clients[0].contexts->max_priority, "high");

    // An override may lower it too: own high, in force low.
    b.contexts = parse_contexts("client pid ctx priority effective banned in_flight\n"
                                "7 42 1 512 -512 0 0\n"
                                "7 42 2 -1023 -1023 0 0\n");
    EXPECT_EQ(compute_view(a, b).clients[0].contexts->max_priority, "low");
    std::ostringstream json;
    write_json(compute_view(a, b), json, 1000);
    EXPECT_EQ(nlohmann::json::parse(json.str())["clients"][0]["contexts"]["max_priority"], "low");

    // A kernel without the effective column: the context's own priority.
    b.contexts = parse_contexts("client pid ctx priority banned in_flight\n"
                                "7 42 1 512 0 0\n");
    EXPECT_EQ(compute_view(a, b).clients[0].contexts->max_priority, "high");
}

TEST(TopView, BusyIsClamped)
{
    const auto a = sample_at(1s, hqds_busy(0, 0, 0, 0), 0);
    const auto b = sample_at(2s, hqds_busy(5'000'000'000, 0, 0, 0), 9'000'000'000);
    const auto v = compute_view(a, b);
    EXPECT_DOUBLE_EQ(*v.engines[0].busy_percent, 100.0);
    EXPECT_DOUBLE_EQ(*v.clients[0].classes.at("compute").busy_percent, 100.0);
}

/// The --json output of @v, parsed back.
nlohmann::json json_of(const View& v, std::uint64_t interval_ms)
{
    std::ostringstream out;
    write_json(v, out, interval_ms);
    return nlohmann::json::parse(out.str());
}

TEST(TopOutput, JsonEngines)
{
    const auto a = sample_at(1s, hqds_busy(0, 1'000'000, 0, 10), 0);
    const auto b = sample_at(1500ms, hqds_busy(0, 251'000'000, 100'000'000, 20), 500'000'000);
    const auto j = json_of(compute_view(a, b), 500);
    EXPECT_EQ(j["interval_ms"], 500);
    EXPECT_EQ(j["measured_interval_s"], 0.5);
    EXPECT_EQ(j["debugfs"], "/fake");
    ASSERT_EQ(j["engines"].size(), 2U) << j;
    const auto& c = j["engines"][1];
    EXPECT_EQ(c["name"], "compute0");
    EXPECT_EQ(c["state"], "running");
    EXPECT_EQ(c["busy_percent"], 70.0);
    EXPECT_EQ(c["jobs_done"], 10);
    ASSERT_EQ(c["hqds"].size(), 2U) << j;
    EXPECT_EQ(c["hqds"][0]["busy_percent"], 50.0);
    EXPECT_EQ(c["hqds"][0]["busy_ns"], 251'000'000);
    EXPECT_EQ(c["hqds"][0]["jobs_per_s"], 20.0);
    EXPECT_EQ(c["hqds"][1]["pipe_prio"], 2);
    EXPECT_EQ(c["hqds"][1]["state"], "preempted");
    EXPECT_EQ(c["hqds"][1]["preemptions"], 2);
}

TEST(TopOutput, JsonClientsAndCus)
{
    const auto a = sample_at(1s, hqds_busy(0, 1'000'000, 0, 10), 0);
    auto b = sample_at(1500ms, hqds_busy(0, 251'000'000, 100'000'000, 20), 500'000'000);
    b.contexts = parse_contexts("client pid ctx priority effective banned in_flight\n"
                                "7 42 1 normal normal 0 1\n");
    const auto j = json_of(compute_view(a, b), 500);
    ASSERT_EQ(j["clients"].size(), 1U) << j;
    const auto& c = j["clients"][0];
    EXPECT_EQ(c["id"], 7);
    EXPECT_EQ(c["pid"], 42);
    EXPECT_EQ(c["comm"], "spinner");
    EXPECT_EQ(c["engines"]["compute"]["busy_percent"], 50.0);
    EXPECT_EQ(c["engines"]["compute"]["capacity"], 2);
    EXPECT_EQ(c["total_memory"], 4194304);
    EXPECT_EQ(c["resident_memory"], 524288);
    EXPECT_EQ(c["contexts"]["max_priority"], "normal");
    EXPECT_EQ(c["contexts"]["count"], 1);
    EXPECT_EQ(j["cus"]["busy"], 6);
    EXPECT_EQ(j["cus"]["busy_percent"], 75.0); // 6 of 8 CUs
    EXPECT_EQ(j["cus"]["sequencer"], "priority");
    ASSERT_EQ(j["contexts"].size(), 1U);
    EXPECT_EQ(j["contexts"][0]["banned"], false);
}

TEST(TopOutput, JsonKeysInTheirDocumentedOrder)
{
    const auto a = sample_at(1s, hqds_busy(0, 1'000'000, 0, 10), 0);
    const auto b = sample_at(1500ms, hqds_busy(0, 251'000'000, 100'000'000, 20), 500'000'000);
    std::ostringstream out;
    write_json(compute_view(a, b), out, 500);
    const auto text = out.str();
    std::size_t at = 0;
    for (const char* key : {"interval_ms", "measured_interval_s", "debugfs", "debugfs_error",
                            "engines", "cus", "clients", "contexts"}) {
        const auto next = text.find(std::string{"\n  \""} + key + "\": ", at);
        ASSERT_NE(next, std::string::npos) << key << " after " << at << " in " << text;
        at = next;
    }
}

TEST(TopOutput, JsonWithoutDebugfs)
{
    Sample a, b;
    a.time = 1s;
    b.time = 2s;
    const auto j = json_of(compute_view(a, b), 1000);
    EXPECT_TRUE(j["debugfs"].is_null()) << j;
    EXPECT_TRUE(j["debugfs_error"].is_null()) << j; // no reason known
    EXPECT_TRUE(j["cus"].is_null()) << j;
    EXPECT_TRUE(j["contexts"].is_null()) << j;
    EXPECT_EQ(j["engines"], nlohmann::json::array()) << j;
    EXPECT_EQ(j["clients"], nlohmann::json::array()) << j;
}

TEST(TopOutput, JsonUnknownSharesAreNull)
{
    auto a = sample_at(1s, hqds_old, 0);
    a.clients.clear();
    const auto b = sample_at(2s, hqds_old, 900);
    const auto j = json_of(compute_view(a, b), 1000);
    EXPECT_TRUE(j["engines"][0]["busy_percent"].is_null()) << j;
    EXPECT_TRUE(j["engines"][0]["hqds"][0]["busy_ns"].is_null()) << j;
    EXPECT_TRUE(j["clients"][0]["engines"]["compute"]["busy_percent"].is_null()) << j;
    EXPECT_FALSE(j["clients"][0].contains("contexts")) << j;
}

TEST(TopOutput, TextFrame)
{
    const auto a = sample_at(1s, hqds_busy(0, 1'000'000, 0, 10), 0);
    const auto b = sample_at(1500ms, hqds_busy(0, 251'000'000, 100'000'000, 20), 500'000'000);
    const auto frame = render(compute_view(a, b), 120);
    std::string all;
    for (const auto& l : frame) {
        EXPECT_LE(l.size(), 120U);
        all += l + "\n";
    }
    EXPECT_NE(all.find("compute0"), std::string::npos) << all;
    EXPECT_NE(all.find(" 70.0%"), std::string::npos) << all;
    EXPECT_NE(all.find("spinner"), std::string::npos) << all;
    EXPECT_NE(all.find("4.0 MiB"), std::string::npos) << all;
    EXPECT_NE(all.find("6/8 busy"), std::string::npos) << all;
    for (const auto& l : render(compute_view(a, b), 40))
        EXPECT_LE(l.size(), 40U);
}

/// "hqds" of the module's default topology: 1 GFX and 2 COPY engines of 2
/// queues, 4 COMPUTE engines of 4.
std::string hqds_default()
{
    std::string text = "engine queue pipe_prio queue_prio active running preempted rptr wptr "
                       "done preemptions busy_ns\n";
    const std::pair<std::string, unsigned> engines[] = {
        {"gfx0", 2},     {"compute0", 4}, {"compute1", 4}, {"compute2", 4},
        {"compute3", 4}, {"copy0", 2},    {"copy1", 2}};
    for (const auto& [name, queues] : engines)
        for (unsigned q = 0; q < queues; q++)
            text += name + " " + std::to_string(q) + " 1 8 1 0 0 0 0 0 0 0\n";
    return text;
}

/// A view of the default topology with @clients clients, pids 1001...
View default_view(std::size_t clients)
{
    auto s = sample_at(1s, hqds_default(), 0);
    s.clients.clear();
    for (std::size_t i = 0; i < clients; i++) {
        Client c;
        c.info = *parse_fdinfo(fdinfo(i + 1, 0));
        c.pid = 1001 + i;
        c.comm = "client" + std::to_string(i);
        s.clients.emplace(i + 1, c);
    }
    return compute_view(s, s);
}

std::size_t count_lines(const std::vector<std::string>& frame, std::string_view part)
{
    return static_cast<std::size_t>(std::count_if(frame.begin(), frame.end(), [&](const auto& l) {
        return l.find(part) != std::string::npos;
    }));
}

/// The client lines of @frame: those of pids 1001...
std::size_t count_clients(const std::vector<std::string>& frame)
{
    return static_cast<std::size_t>(std::count_if(
        frame.begin(), frame.end(), [](const auto& l) { return l.starts_with("   10"); }));
}

Layout terminal_of(std::size_t rows)
{
    // The last row is the keys'.
    return {.width = 120, .rows = rows - 1, .queues = std::nullopt, .scroll = 0};
}

TEST(TopLayout, ClientsOnA40RowTerminal)
{
    const auto v = default_view(10);
    ASSERT_EQ(v.engines.size(), 7U);
    const auto l = terminal_of(40);
    EXPECT_FALSE(queues_shown(v, l));
    const auto frame = render(v, l);
    EXPECT_LE(frame.size(), 39U);
    EXPECT_EQ(count_lines(frame, "  queue "), 0U);
    EXPECT_EQ(count_clients(frame), 10U) << ::testing::PrintToString(frame);
    EXPECT_EQ(count_lines(frame, "compute3"), 1U);

    // Shown anyway (the 1 key): the first clients, and which they are.
    auto shown = l;
    shown.queues = true;
    const auto tall = render(v, shown);
    EXPECT_EQ(tall.size(), 39U);
    EXPECT_EQ(count_lines(tall, "  queue "), 22U);
    EXPECT_EQ(count_clients(tall), 2U);
    EXPECT_EQ(tall.back().find("  clients 1-2 of 10 "), 0U) << tall.back();

    // A tall terminal shows them; without a terminal, everything.
    EXPECT_TRUE(queues_shown(v, terminal_of(80)));
    EXPECT_EQ(count_lines(render(v, terminal_of(80)), "  queue "), 22U);
    EXPECT_EQ(count_lines(render(v, 0), "  queue "), 22U);
    EXPECT_EQ(count_clients(render(v, 0)), 10U);
}

TEST(TopLayout, ClientsScroll)
{
    const auto v = default_view(50);
    auto l = terminal_of(40);
    // 39 rows: 14 above the clients, 24 clients and the line that says which.
    EXPECT_EQ(client_rows(v, l), 25U);
    EXPECT_EQ(max_scroll(v, l), 26U);
    auto frame = render(v, l);
    EXPECT_EQ(frame.size(), 39U);
    EXPECT_NE(frame[14].find(" client0 "), std::string::npos) << frame[14];
    EXPECT_EQ(frame.back().find("  clients 1-24 of 50 "), 0U) << frame.back();

    apply_key(l, v, Key::Down);
    apply_key(l, v, Key::PageDown);
    EXPECT_EQ(l.scroll, 25U);
    frame = render(v, l);
    EXPECT_NE(frame[14].find(" client25 "), std::string::npos) << frame[14];
    apply_key(l, v, Key::PageDown);
    EXPECT_EQ(l.scroll, 26U); // the last client at the bottom
    EXPECT_EQ(render(v, l).back().find("  clients 27-50 of 50 "), 0U);
    apply_key(l, v, Key::Home);
    apply_key(l, v, Key::Up);
    EXPECT_EQ(l.scroll, 0U);
    apply_key(l, v, Key::End);
    EXPECT_EQ(l.scroll, 26U);
    apply_key(l, v, Key::PageUp);
    EXPECT_EQ(l.scroll, 2U);

    // Folding and showing the queues.
    apply_key(l, v, Key::Queues);
    EXPECT_EQ(l.queues, true);
    EXPECT_EQ(l.scroll, 2U);
    EXPECT_EQ(render(v, l).size(), 39U);
    apply_key(l, v, Key::Queues);
    EXPECT_EQ(l.queues, false);
    auto tall = terminal_of(200);
    tall.queues = false; // the key's choice holds on any terminal
    EXPECT_FALSE(queues_shown(v, tall));
}

TEST(TopLayout, Keys)
{
    using enum Key;
    EXPECT_EQ(decode_keys("q"), std::vector<Key>{Quit});
    EXPECT_EQ(decode_keys("\x03"), std::vector<Key>{Quit});
    EXPECT_EQ(decode_keys("\x1b[A\x1b[6~1j\x1bOB\x1b[5~k"),
              (std::vector<Key>{Up, PageDown, Queues, Down, Down, PageUp, Up}));
    EXPECT_EQ(decode_keys("\x1b[H\x1b[4~\x1bOF\x1b[1~"), (std::vector<Key>{Home, End, End, Home}));
    // Other keys, the right arrow, F5 and a lone ESC, are skipped whole.
    EXPECT_EQ(decode_keys("\x1b[Cx\x1b[15~\x1bq"), (std::vector<Key>{Quit}));

    const auto v = default_view(3);
    auto l = terminal_of(40);
    const auto help = key_help(v, l, 0);
    EXPECT_NE(help.find("q: quit"), std::string::npos) << help;
    EXPECT_NE(help.find("1: show queues"), std::string::npos) << help;
    EXPECT_NE(help.find("PgUp/PgDn"), std::string::npos) << help;
    l.queues = true;
    EXPECT_NE(key_help(v, l, 0).find("1: fold queues"), std::string::npos);
    EXPECT_EQ(key_help(v, l, 20).size(), 20U);
}

/// The tool itself over a fake tree: --json --debugfs --proc.
TEST(TopTool, JsonOverFakeTree)
{
    TempDir d;
    d.write("debug/dri/0/name", "tempo dev=tempo unique=tempo\n");
    d.write("debug/dri/0/hqds", hqds_busy(0, 0, 0, 0));
    d.write("debug/dri/0/cus", cus_text);
    d.write("proc/55/comm", "fake\n");
    d.write("proc/55/fdinfo/3", fdinfo(3, 0));
    const auto out = d.path() / "out.json";
    const std::string cmd = std::string{TEMPO_TOP_PATH} + " --json --interval 50 --debugfs " +
                            (d.path() / "debug").string() + " --proc " +
                            (d.path() / "proc").string() + " >" + out.string();
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    std::ifstream in(out);
    const auto j = nlohmann::json::parse(in);
    EXPECT_EQ(j["interval_ms"], 50);
    EXPECT_EQ(j["debugfs"], (d.path() / "debug" / "dri" / "0").string());
    ASSERT_EQ(j["engines"].size(), 2U) << j;
    EXPECT_EQ(j["engines"][1]["name"], "compute0");
    ASSERT_EQ(j["clients"].size(), 1U) << j;
    EXPECT_EQ(j["clients"][0]["comm"], "fake");
    EXPECT_EQ(j["clients"][0]["pid"], 55);
    EXPECT_TRUE(j["contexts"].is_null()) << j;
    EXPECT_EQ(j["cus"]["sequencer"], "priority");
}

/// The lines tempo-top @args prints over a fake tree with one client.
std::vector<std::string> tool_lines(const TempDir& d, const std::string& args)
{
    d.write("debug/dri/0/name", "tempo dev=tempo unique=tempo\n");
    d.write("debug/dri/0/hqds", hqds_busy(0, 0, 0, 0));
    d.write("proc/55/comm", "fake\n");
    d.write("proc/55/fdinfo/3", fdinfo(3, 0));
    const auto out = d.path() / "out.txt";
    const std::string cmd = std::string{TEMPO_TOP_PATH} + " " + args + " --debugfs " +
                            (d.path() / "debug").string() + " --proc " +
                            (d.path() / "proc").string() + " >" + out.string();
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    std::ifstream in(out);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

TEST(TopTool, JsonLinesWithN)
{
    TempDir d;
    const auto lines = tool_lines(d, "--json -n 3 --interval 20");
    ASSERT_EQ(lines.size(), 3U);
    for (const auto& line : lines) {
        const auto j = nlohmann::json::parse(line);
        EXPECT_EQ(j["interval_ms"], 20) << line;
        EXPECT_EQ(j["engines"].size(), 2U) << line;
        EXPECT_EQ(j["clients"][0]["comm"], "fake") << line;
        EXPECT_GT(j["measured_interval_s"].get<double>(), 0.0) << line;
    }
    // -n 1 and --once: one document, on one line as well.
    EXPECT_EQ(tool_lines(d, "--json -n 1 --interval 20").size(), 1U);
    const auto once = tool_lines(d, "--json --once --interval 20");
    ASSERT_EQ(once.size(), 1U);
    EXPECT_EQ(nlohmann::json::parse(once[0])["clients"].size(), 1U);
    // Without -n: one document, indented.
    EXPECT_GT(tool_lines(d, "--json --interval 20").size(), 1U);
}

TEST(TopTool, HelpAndUsageErrors)
{
    const std::string tool{TEMPO_TOP_PATH};
    EXPECT_EQ(std::system((tool + " --help >/dev/null").c_str()), 0);
    EXPECT_EQ(WEXITSTATUS(std::system((tool + " --bogus 2>/dev/null").c_str())), 2);
    EXPECT_EQ(WEXITSTATUS(std::system((tool + " --interval 0 2>/dev/null").c_str())), 2);
}

TEST(TopTool, PlainFramesWithoutTty)
{
    TempDir d;
    d.write("debug/dri/0/name", "tempo dev=tempo unique=tempo\n");
    d.write("debug/dri/0/hqds", hqds_busy(0, 0, 0, 0));
    const auto out = d.path() / "out.txt";
    const std::string cmd = std::string{TEMPO_TOP_PATH} + " -n 2 --interval 20 --debugfs " +
                            (d.path() / "debug").string() + " --proc " + d.path().string() +
                            "/none >" + out.string();
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    std::ifstream in(out);
    std::stringstream s;
    s << in.rdbuf();
    const auto text = s.str();
    EXPECT_EQ(text.find("\x1b"), std::string::npos) << text;
    const auto first = text.find("tempo-top - ");
    ASSERT_NE(first, std::string::npos) << text;
    EXPECT_NE(text.find("tempo-top - ", first + 1), std::string::npos) << text;
    EXPECT_NE(text.find("(no tempo clients)"), std::string::npos) << text;
}

} // namespace
