// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * The game: one context per engine at the game's priority. On every gfx
 * and compute engine it keeps two jobs queued, each a long SPIN dispatch
 * (several workgroups per CU, GameConfig::group_ms each) followed by a
 * COPY kernel (GameConfig::copy_bytes_per_cu per CU); on every copy engine
 * it streams COPY packets (GameConfig::stream_bytes every
 * stream_interval_ms). A thread refills the queues as jobs complete. The
 * emulated GPU copies with the CPU, so the memory work is kept modest: on
 * two vCPUs, heavy copying competes for the CPU with the very code paths
 * (command processors, the compositor's thread) whose latency is measured.
 *
 * A compositor: a context on one engine at the priority it asks for, in a
 * process of its own. Every period (11.1 ms for the VR compositor, 90 Hz;
 * 16.7 ms for the system compositor, 60 Hz) it writes a new "eye image"
 * (16 KiB, a pattern that depends on the frame number), submits
 * [WRITE_TIMESTAMP, DISPATCH COPY of 4 groups x 4 KiB into the frame
 * buffer, WRITE_TIMESTAMP], and waits for the fence until the next vblank:
 * a frame whose fence has not signalled by then missed its deadline. It
 * then checks the frame buffer against the eye image. A late frame makes
 * the compositor skip the vblanks it missed.
 *
 * Each process drops CAP_SYS_NICE first: the game asks for LOW itself, the
 * VR compositor asks for NORMAL and is raised by the demo (process.hpp).
 */
#include "compositor.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <thread>

#include <tempo/buffer.hpp>
#include <tempo/context.hpp>
#include <tempo/error.hpp>
#include <tempo/packet.hpp>
#include <tempo/sync.hpp>

#include "tempo-tooling/device.hpp"
#include "tempo-tooling/load.hpp"
#include "tempo-tooling/timing.hpp"

namespace tempo::demo {

namespace {

using tooling::Clock;
using tooling::Load;
using tooling::LoadStats;
using tooling::LoadStream;
using tooling::ns_since_epoch;

constexpr std::uint32_t eye_groups = 4;
constexpr std::uint32_t eye_bytes_per_group = 4096;
constexpr std::uint32_t eye_bytes = eye_groups * eye_bytes_per_group;

/// The eye image of frame @frame: a pattern that differs from frame to frame.
std::uint32_t eye_word(std::uint64_t frame, std::uint32_t i)
{
    std::uint32_t x = static_cast<std::uint32_t>(frame * 2654435761U) ^ (i * 40503U) ^ 0x9e3779b9U;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return x;
}

/// The game: its batches, buffers and the thread that keeps the engines busy.
class Game {
public:
    Game(const Device& device, Priority priority, const GameConfig& config)
    {
        const std::uint32_t cus = std::max<std::uint32_t>(device.info().num_cus, 1);
        const std::uint32_t copy_bytes = cus * config.copy_bytes_per_cu;
        const std::uint64_t size = std::max({copy_bytes, config.stream_bytes, 4096U});
        src_.emplace(device, size);
        dst_.emplace(device, size);
        PacketWriter render;
        render.dispatch_spin({.x = cus * config.groups_per_cu}, config.group_ms * 1000000U)
            .dispatch_copy({.x = cus}, dst_->gpu_address(), src_->gpu_address(),
                           config.copy_bytes_per_cu)
            .end();
        render_ = Buffer::with_contents(device, render.dwords());
        PacketWriter stream;
        stream.copy(dst_->gpu_address(), src_->gpu_address(), config.stream_bytes).end();
        stream_ = Buffer::with_contents(device, stream.dwords());

        std::vector<LoadStream> streams;
        for (const EngineInfo& e : device.engines()) {
            const bool copy = e.engine.engine_class == EngineClass::Copy;
            streams.push_back(
                {.engine = e.engine,
                 .priority = priority,
                 .batch = copy ? stream_->gpu_address() : render_->gpu_address(),
                 .min_interval = std::chrono::milliseconds{copy ? config.stream_interval_ms : 0}});
            names_.push_back(to_string(e.engine));
        }
        load_.emplace(device, std::move(streams), 2);
    }

    Load& load() { return *load_; }
    [[nodiscard]] const std::vector<std::string>& names() const { return names_; }

private:
    std::optional<Buffer> src_;
    std::optional<Buffer> dst_;
    std::optional<Buffer> render_;
    std::optional<Buffer> stream_;
    std::vector<std::string> names_;
    // Declared last: destroyed (its jobs drained) before the buffers.
    std::optional<Load> load_;
};

/// The compositor's context, buffers and batch.
class Compositor {
public:
    Compositor(const Device& device, Engine engine, Priority priority)
        : context_(device, engine, priority),
          eye_(device, eye_bytes),
          frame_(device, eye_bytes),
          stamps_(device),
          times_(device, 4096)
    {
        PacketWriter w;
        w.write_timestamp(stamps_.start())
            .dispatch_copy({.x = eye_groups}, frame_.gpu_address(), eye_.gpu_address(),
                           eye_bytes_per_group)
            .write_job_times(times_.gpu_address())
            .write_timestamp(stamps_.end())
            .end();
        batch_ = Buffer::with_contents(device, w.dwords());
    }

    /// Renders frame @frame's eye image and clears the frame buffer (CPU).
    void prepare(std::uint64_t frame)
    {
        std::vector<std::uint32_t> words(eye_bytes / 4);
        for (std::uint32_t i = 0; i < words.size(); i++)
            words[i] = eye_word(frame, i);
        eye_.write_array<std::uint32_t>(0, words);
        std::vector<std::uint32_t> zero(eye_bytes / 4, 0);
        frame_.write_array<std::uint32_t>(0, zero);
        stamps_.clear();
        times_.write(0, JobTimes{});
    }

    Fence submit() const
    {
        return *context_.get().submit(
            {.slot = Slot{0}, .batch = batch_->gpu_address(), .out_fence = true});
    }

    /// Whether the frame buffer holds frame @frame's eye image.
    [[nodiscard]] bool check(std::uint64_t frame) const
    {
        const auto words = frame_.read_array<std::uint32_t>(0, eye_bytes / 4);
        for (std::uint32_t i = 0; i < words.size(); i++)
            if (words[i] != eye_word(frame, i))
                return false;
        return true;
    }

    /// GPU timestamps (nanoseconds) of the batch's first and last packets.
    [[nodiscard]] std::pair<double, double> stamps() const { return stamps_.read_ns(); }

    /// What the hardware reported of the frame's job up to its last packet.
    [[nodiscard]] JobTimes times() const { return times_.read<JobTimes>(0); }

    /// A failed job bans the context: start again with a new one.
    void replace_context() { context_.replace(); }

    /// The priority its context runs at, as the kernel reports it (an override included).
    [[nodiscard]] Priority priority() const { return context_.get().priority(); }

private:
    tooling::EngineContext context_;
    Buffer eye_;
    Buffer frame_;
    tooling::StampPair stamps_;
    Buffer times_;
    std::optional<Buffer> batch_;
};

} // namespace

std::string describe_game(const Device& device, const GameConfig& game)
{
    const std::uint32_t cus = std::max<std::uint32_t>(device.info().num_cus, 1);
    std::string render, copy;
    for (const EngineInfo& e : device.engines()) {
        std::string& list = e.engine.engine_class == EngineClass::Copy ? copy : render;
        list += (list.empty() ? "" : " ") + to_string(e.engine);
    }
    char text[512];
    std::snprintf(text, sizeof(text),
                  "on %s: SPIN %u groups x %u ms, then a COPY kernel over %u KiB, 2 jobs queued "
                  "each; on %s: a %u KiB COPY packet every %u ms",
                  render.c_str(), cus * game.groups_per_cu, game.group_ms,
                  cus * game.copy_bytes_per_cu / 1024, copy.empty() ? "no engine" : copy.c_str(),
                  game.stream_bytes / 1024, game.stream_interval_ms);
    return text;
}

namespace {

/// A frame that ran: where its time went, whether it met its deadline and
/// left the right output. @late: its fence had not signalled by the deadline.
void record_frame(const Compositor& compositor, std::uint64_t frame, Clock::time_point submitted,
                  Clock::time_point deadline, Clock::time_point done, bool late, ProcessRun& run)
{
    const auto [start, end] = compositor.stamps();
    const double submitted_ns = ns_since_epoch(submitted);
    const double deadline_ns = ns_since_epoch(deadline);
    run.start_us.push_back((start - submitted_ns) / 1000.0);
    // The GPU's own clock agrees: the last packet ran before the deadline.
    bool missed = late || end > deadline_ns;
    if (!compositor.check(frame)) {
        run.wrong++;
        missed = true;
    }
    if (!missed)
        return;
    run.missed++;
    const JobTimes times = compositor.times();
    const double waited_ns = static_cast<double>(times.engine_wait_ns + times.cu_wait_ns);
    // Other work on the GPU caused the miss when the batch ended late and
    // would have ended in time without the waits behind it.
    if (end > deadline_ns && end - waited_ns <= deadline_ns)
        run.missed_by_gpu++;
    run.missed_queued_us.push_back((static_cast<double>(times.queued) - submitted_ns) / 1000.0);
    run.missed_waited_us.push_back(waited_ns / 1000.0);
    run.missed_start_us.push_back((start - submitted_ns) / 1000.0);
    run.missed_run_us.push_back((end - start) / 1000.0);
    run.missed_wake_us.push_back((ns_since_epoch(done) - end) / 1000.0);
}

/// Frame @frame, submitted at @vblank and waited for until the next one
/// (@period later); returns the first vblank after it is done.
Clock::time_point run_frame(Compositor& compositor, std::uint64_t frame, Clock::time_point vblank,
                            std::chrono::nanoseconds period, ProcessRun& run)
{
    compositor.prepare(frame);
    std::this_thread::sleep_until(vblank);
    const auto submitted = Clock::now();
    const Fence fence = compositor.submit();
    const auto left = std::max(submitted + period - Clock::now(), Clock::duration{0});
    const bool late = fence.wait(std::chrono::duration_cast<std::chrono::nanoseconds>(left)) ==
                      WaitResult::Timeout;
    if (late && fence.wait(std::chrono::seconds{10}) == WaitResult::Timeout)
        throw std::runtime_error("a compositor frame did not complete within 10 s");
    const auto done = Clock::now();
    run.frames++;
    run.latency_us.push_back(std::chrono::duration<double, std::micro>(done - submitted).count());
    if (fence.status() != 1) {
        run.failed++;
        run.missed++;
        compositor.replace_context();
    } else {
        record_frame(compositor, frame, submitted, submitted + period, done, late, run);
    }
    auto next = submitted + period;
    for (; next < done; next += period)
        run.skipped_vblanks++;
    return next;
}

/// What the game did during the run.
void record_game(const Game& game, const LoadStats& stats, ProcessRun& run)
{
    run.jobs = stats.completed;
    run.failed_jobs = stats.failed;
    for (std::size_t i = 0; i < stats.failed_per_stream.size(); i++)
        if (stats.failed_per_stream[i])
            run.failures += (run.failures.empty() ? "" : ", ") + game.names()[i] + " " +
                            std::to_string(stats.failed_per_stream[i]);
    if (!stats.fatal.empty())
        throw std::runtime_error("the game failed: " + stats.fatal);
}

/// Waits for the demo's Tag::Go (throws if it went away instead).
void wait_for_go(Channel& demo)
{
    if (demo.receive().tag != Tag::Go)
        throw std::runtime_error("the demo sent an unexpected message");
}

} // namespace

int game_process(Channel& demo, const std::string& device_path, Priority priority,
                 const GameConfig& config)
{
    drop_sys_nice();
    const Device device = tooling::open_device(device_path);
    Game game(device, priority, config);
    game.load().start();
    demo.send(Tag::Ready);
    wait_for_go(demo);
    game.load().reset_stats();
    // Until the demo says stop; the load runs on its own thread meanwhile.
    if (demo.receive().tag != Tag::Stop)
        throw std::runtime_error("the demo sent an unexpected message");
    const LoadStats stats = game.load().stats();
    game.load().stop();
    ProcessRun run;
    run.role = Role::Game;
    run.priority = priority;
    record_game(game, stats, run);
    demo.send(Tag::Result, nlohmann::json(run));
    return 0;
}

int compositor_process(Channel& demo, const std::string& device_path,
                       const CompositorConfig& config)
{
    drop_sys_nice();
    const Device device = tooling::open_device(device_path);
    Compositor compositor(device, config.engine, config.priority);
    demo.send(Tag::Ready, nullptr, config.pass_fd ? device.fd() : -1);
    wait_for_go(demo);
    ProcessRun run;
    run.role = config.role;
    run.priority = compositor.priority();
    // Let the game fill every queue and every CU.
    std::this_thread::sleep_for(std::chrono::milliseconds{200});
    run.latency_us.reserve(config.frames);
    auto vblank = Clock::now() + config.period;
    for (std::uint64_t frame = 0; config.frames ? frame < config.frames : !demo.pending(); frame++)
        vblank = run_frame(compositor, frame, vblank, config.period, run);
    demo.send(Tag::Result, nlohmann::json(run));
    return 0;
}

} // namespace tempo::demo
