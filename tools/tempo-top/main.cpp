// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * tempo-top: a live view of the tempo device (engines and their hardware
 * queues, the compute-unit pool) and of its clients (engine time, memory,
 * contexts), refreshed in place on a terminal, or JSON snapshots.
 */
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <thread>

#include <poll.h>
#include <unistd.h>

#include "tempo-tooling/cli.hpp"
#include "terminal.hpp"
#include "top.hpp"
#include "top_output.hpp"

namespace {

using Clock = std::chrono::steady_clock;
namespace top = tempo::top;

constexpr const char* about =
    R"(Show how busy the tempo device is, refreshed in place: each engine and
hardware queue (busy share of the interval, state, jobs per second), the
compute-unit pool, and each client (DRM file) with its engine time per
class, memory and contexts. Device data comes from debugfs (root only);
clients come from /proc/PID/fdinfo.)";

constexpr const char* footer =
    R"(Keys: q or Ctrl-C quits; 1 shows or folds the queues' lines (folded when
they would take more than half the terminal); up/down (j/k), PgUp/PgDn,
Home/End scroll the clients. Busy shares need two samples: the first frame
appears after one interval. Without a tty the frames are printed one after
the other, whole, without escape sequences.

Exit status: 0, 1 when the output cannot be written or the terminal not
set up, 2 for a usage error.)";

struct Options {
    std::uint64_t interval_ms = 1000;
    /// Frames to print; 0: until quit.
    std::uint64_t frames = 0;
    bool json = false;
    top::Sources sources;
};

void add_options(CLI::App& app, Options& o)
{
    namespace tooling = tempo::tooling;
    tooling::setup(app);
    app.footer(footer);
    tooling::add_count(app, "--interval", o.interval_ms,
                       "time between two refreshes (default 1000)", 1, 86'400'000)
        ->type_name("MS");
    app.add_flag_callback(
        "--once", [&o] { o.frames = 1; }, "print one frame and exit (same as -n 1)");
    tooling::add_count(app, "-n", o.frames,
                       "print N frames and exit; with --json, N snapshots,\n"
                       "one JSON document a line",
                       1);
    app.add_flag("--json", o.json,
                 "print one JSON snapshot, measured over one interval\n"
                 "(with -n N, N of them)");
    app.add_option("--debugfs", o.sources.debugfs,
                   "the debugfs mount, the dri directory or the device's\n"
                   "own directory (default /sys/kernel/debug)")
        ->type_name("DIR");
    app.add_option("--proc", o.sources.proc, "the proc file system (default /proc)")
        ->type_name("DIR");
}

std::chrono::milliseconds interval(const Options& o)
{
    return std::chrono::milliseconds(o.interval_ms);
}

/// Calls @print(view, i) with the view of each interval, @frames of them
/// (0: until killed), flushing standard output after each; 1 once it
/// cannot be written.
template <typename Print>
int each_interval(const Options& o, std::uint64_t frames, Print&& print)
{
    auto before = top::take_sample(o.sources);
    auto next = Clock::now();
    for (std::uint64_t i = 0; !frames || i < frames; i++) {
        next += interval(o);
        std::this_thread::sleep_until(next);
        auto now = top::take_sample(o.sources);
        print(top::compute_view(before, now), i);
        std::cout.flush();
        if (!std::cout)
            return 1;
        before = std::move(now);
    }
    return 0;
}

/// --json: one document; with -n, that many, one a line (JSON Lines).
int run_json(const Options& o)
{
    return each_interval(o, o.frames ? o.frames : 1, [&o](const top::View& v, std::uint64_t i) {
        if (!v.debugfs && i == 0)
            std::cerr << "tempo-top: no device data: " << v.debugfs_problem << "\n";
        if (o.frames)
            top::write_json_line(v, std::cout, o.interval_ms);
        else
            top::write_json(v, std::cout, o.interval_ms);
    });
}

/// Frames one after the other, without escape sequences (stdout is no tty).
int run_plain(const Options& o)
{
    return each_interval(o, o.frames, [](const top::View& v, std::uint64_t i) {
        if (i)
            std::cout << "\n";
        for (const auto& line : top::render(v, 0))
            std::cout << line << "\n";
    });
}

/// The view refreshed in place on the terminal, until quit or -n frames.
class Live {
public:
    explicit Live(const Options& o) : o_(o)
    {
        std::fputs("\x1b[Hsampling...", stdout);
        std::fflush(stdout);
        before_ = top::take_sample(o_.sources);
        next_ = Clock::now() + interval(o_);
        // Reading the terminal from the background (after Ctrl-Z and bg)
        // then fails instead of stopping us.
        std::signal(SIGTTIN, SIG_IGN);
    }

    int run()
    {
        for (;;) {
            const Input input = wait_for_input();
            if (input == Input::Quit)
                break;
            if (input == Input::Suspend) {
                terminal_.leave();
                ::kill(::getpid(), SIGSTOP);
                continue;
            }
            const bool sampled = sample_if_due();
            if ((sampled || input == Input::Redraw) && view_)
                draw();
            if (o_.frames && frames_ >= o_.frames)
                break;
        }
        terminal_.leave();
        print_last_frame();
        return std::cout ? 0 : 1;
    }

private:
    /// What wakes the loop up, the most urgent last (std::max picks it).
    enum class Input {
        None,
        Redraw,
        Suspend,
        Quit
    };

    /// Waits for a signal, a key or the next sample, whichever comes first.
    Input wait_for_input()
    {
        const auto left = std::chrono::ceil<std::chrono::milliseconds>(next_ - Clock::now());
        pollfd fds[2] = {{signals_.fd(), POLLIN, 0}, {STDIN_FILENO, POLLIN, 0}};
        const int ready =
            ::poll(fds, keys_ ? 2 : 1, static_cast<int>(std::max<std::int64_t>(0, left.count())));
        if (ready < 0 && errno != EINTR)
            return Input::Quit;
        if (ready <= 0)
            return Input::None;
        Input input = Input::None;
        if (fds[0].revents & POLLIN)
            input = on_signal(signals_.read());
        if (keys_ && (fds[1].revents & POLLIN))
            input = std::max(input, on_keys());
        return input;
    }

    Input on_signal(int sig)
    {
        switch (sig) {
        case 0:
            return Input::None;
        case SIGWINCH:
        case SIGCONT:
            terminal_.enter();
            std::fputs("\x1b[2J", stdout);
            return Input::Redraw;
        case SIGTSTP:
            return Input::Suspend;
        default:
            return Input::Quit; // SIGINT, SIGTERM, SIGHUP
        }
    }

    /// The keys typed: q quits, the others change the layout.
    Input on_keys()
    {
        char buf[64];
        const auto n = ::read(STDIN_FILENO, buf, sizeof(buf));
        if (n <= 0)
            return Input::None;
        Input input = Input::None;
        for (const auto key : top::decode_keys({buf, static_cast<std::size_t>(n)})) {
            if (key == top::Key::Quit)
                return Input::Quit;
            if (view_) {
                top::apply_key(layout_, *view_, key);
                input = Input::Redraw;
            }
        }
        return input;
    }

    /// The view as the terminal's size and the keys lay it out, the last
    /// line for the keys.
    void draw()
    {
        const auto [rows, columns] = top::Terminal::size();
        layout_.width = columns;
        layout_.rows = rows > 1 ? rows - 1 : 1;
        layout_.scroll = std::min(layout_.scroll, top::max_scroll(*view_, layout_));
        top::Terminal::draw(top::render(*view_, layout_), top::key_help(*view_, layout_, columns));
    }

    /// Takes a sample if its time has come; true if it did (a new view).
    bool sample_if_due()
    {
        if (Clock::now() < next_)
            return false;
        auto now = top::take_sample(o_.sources);
        view_ = top::compute_view(before_, now);
        before_ = std::move(now);
        next_ += interval(o_);
        if (next_ < Clock::now())
            next_ = Clock::now() + interval(o_);
        frames_++;
        return true;
    }

    /// With -n the last frame stays on the normal screen, whole (the queues
    /// as the keys left them).
    void print_last_frame() const
    {
        if (!o_.frames || !view_)
            return;
        const top::Layout whole{.width = top::Terminal::size().second,
                                .rows = 0,
                                .queues = layout_.queues,
                                .scroll = 0};
        for (const auto& line : top::render(*view_, whole))
            std::cout << line << "\n";
        std::cout.flush();
    }

    const Options& o_;
    top::SignalFd signals_;
    top::Terminal terminal_;
    // Keys only from a terminal we are the foreground of.
    bool keys_{top::foreground()};
    top::Sample before_;
    std::optional<top::View> view_;
    top::Layout layout_;
    Clock::time_point next_;
    std::uint64_t frames_{0};
};

int show(const Options& o)
{
    if (o.json)
        return run_json(o);
    if (!::isatty(STDOUT_FILENO) || o.frames == 1)
        return run_plain(o);
    return Live(o).run();
}

} // namespace

int main(int argc, char** argv)
{
    return tempo::tooling::tool_main<Options>(argc, argv, about, "tempo-top", add_options, show);
}
