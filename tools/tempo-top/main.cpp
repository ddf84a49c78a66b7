// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * tempo-top: a live view of the tempo device (engines and their hardware
 * queues, the compute-unit pool) and of its clients (engine time, memory,
 * contexts), refreshed in place on a terminal, or one JSON snapshot.
 */
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include <poll.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <termios.h>
#include <unistd.h>

#include "tempo-tooling/options.hpp"
#include "top.hpp"

namespace {

using tempo::tooling::UsageError;
using Clock = std::chrono::steady_clock;

constexpr std::string_view usage_text = R"(Usage: tempo-top [OPTIONS]

Show how busy the tempo device is, refreshed in place: each engine and
hardware queue (busy share of the interval, state, jobs per second), the
compute-unit pool, and each client (DRM file) with its engine time per
class, memory and contexts. Device data comes from debugfs (root only);
clients come from /proc/PID/fdinfo.

Options:
  --interval MS    time between two refreshes (default 1000)
  --once           print one frame and exit (same as -n 1)
  -n N             print N frames and exit
  --json           print one JSON snapshot, measured over one interval
  --debugfs DIR    the debugfs mount, the dri directory or the device's own
                   directory (default /sys/kernel/debug)
  --proc DIR       the proc file system (default /proc)
  -h, --help       this text

Keys: q or Ctrl-C quits. Busy shares need two samples: the first frame
appears after one interval. Without a tty the frames are printed one after
the other, without escape sequences.

Exit status: 0, 1 when the output cannot be written or the terminal not
set up, 2 for a usage error.
)";

struct Options {
    std::uint64_t interval_ms = 1000;
    std::optional<std::uint64_t> iterations;
    bool json = false;
    tempo::top::Sources sources;
};

Options parse(int argc, char** argv)
{
    using tempo::tooling::option_value;
    using tempo::tooling::parse_count;
    Options o;
    for (int i = 1; i < argc; i++) {
        const std::string_view arg{argv[i]};
        if (arg == "-h" || arg == "--help") {
            std::cout << usage_text;
            std::exit(0);
        } else if (arg == "--json") {
            o.json = true;
        } else if (arg == "--once") {
            o.iterations = 1;
        } else if (auto v = option_value(argc, argv, i, "--interval")) {
            o.interval_ms = parse_count("--interval", *v);
            if (o.interval_ms == 0)
                throw UsageError("--interval must be at least 1 ms");
        } else if (auto n = option_value(argc, argv, i, "-n")) {
            o.iterations = parse_count("-n", *n);
            if (*o.iterations == 0)
                throw UsageError("-n must be at least 1");
        } else if (auto d = option_value(argc, argv, i, "--debugfs")) {
            o.sources.debugfs = std::string{*d};
        } else if (auto p = option_value(argc, argv, i, "--proc")) {
            o.sources.proc = std::string{*p};
        } else {
            throw UsageError("unknown argument: " + std::string{arg});
        }
    }
    return o;
}

/// The terminal while tempo-top draws on it: alternate screen, no cursor,
/// keys unbuffered and not echoed. leave() (also on destruction) restores it.
class Terminal {
public:
    Terminal() { enter(); }
    Terminal(const Terminal&) = delete;
    Terminal& operator=(const Terminal&) = delete;
    ~Terminal() { leave(); }

    void enter()
    {
        if (entered_)
            return;
        // Only in the foreground: tcsetattr() from a background process
        // group would stop us (SIGTTOU).
        if (::isatty(STDIN_FILENO) && ::tcgetpgrp(STDIN_FILENO) == ::getpgrp() &&
            ::tcgetattr(STDIN_FILENO, &saved_) == 0) {
            termios raw = saved_;
            raw.c_lflag &= ~static_cast<tcflag_t>(ICANON | ECHO);
            raw.c_cc[VMIN] = 0;
            raw.c_cc[VTIME] = 0;
            have_termios_ = ::tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0;
        }
        std::fputs("\x1b[?1049h\x1b[?25l\x1b[2J", stdout);
        std::fflush(stdout);
        entered_ = true;
    }

    void leave()
    {
        if (!entered_)
            return;
        std::fputs("\x1b[?25h\x1b[?1049l", stdout);
        std::fflush(stdout);
        if (have_termios_)
            ::tcsetattr(STDIN_FILENO, TCSANOW, &saved_);
        have_termios_ = false;
        entered_ = false;
    }

    /// Rows and columns (24x80 when unknown).
    static std::pair<std::size_t, std::size_t> size()
    {
        winsize ws{};
        if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row && ws.ws_col)
            return {ws.ws_row, ws.ws_col};
        return {24, 80};
    }

private:
    termios saved_{};
    bool have_termios_ = false;
    bool entered_ = false;
};

void draw(const std::vector<std::string>& frame)
{
    const auto [rows, cols] = Terminal::size();
    (void)cols;
    std::string out = "\x1b[H";
    const std::size_t body = rows > 1 ? rows - 1 : 1;
    for (std::size_t i = 0; i < frame.size() && i < body; i++)
        out += frame[i] + "\x1b[K\n";
    out += "\x1b[J\x1b[7m q: quit \x1b[0m";
    std::fwrite(out.data(), 1, out.size(), stdout);
    std::fflush(stdout);
}

int run_json(const Options& o)
{
    const auto s0 = tempo::top::take_sample(o.sources);
    std::this_thread::sleep_for(std::chrono::milliseconds(o.interval_ms));
    const auto s1 = tempo::top::take_sample(o.sources);
    if (!s1.debugfs)
        std::cerr << "tempo-top: no tempo debugfs directory below " << o.sources.debugfs.string()
                  << " (mounted? root?)\n";
    tempo::top::write_json(tempo::top::compute_view(s0, s1), std::cout, o.interval_ms);
    std::cout.flush();
    return std::cout ? 0 : 1;
}

/// Frames one after the other, without escape sequences (stdout is no tty).
int run_plain(const Options& o)
{
    auto before = tempo::top::take_sample(o.sources);
    auto next = Clock::now();
    for (std::uint64_t i = 0; !o.iterations || i < *o.iterations; i++) {
        next += std::chrono::milliseconds(o.interval_ms);
        std::this_thread::sleep_until(next);
        auto now = tempo::top::take_sample(o.sources);
        if (i)
            std::cout << "\n";
        for (const auto& line : tempo::top::render(tempo::top::compute_view(before, now), 0))
            std::cout << line << "\n";
        std::cout.flush();
        if (!std::cout)
            return 1;
        before = std::move(now);
    }
    return 0;
}

int run_live(const Options& o)
{
    sigset_t set;
    sigemptyset(&set);
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGTSTP, SIGCONT})
        sigaddset(&set, sig);
    if (::sigprocmask(SIG_BLOCK, &set, nullptr) != 0) {
        std::perror("tempo-top: sigprocmask");
        return 1;
    }
    const int sfd = ::signalfd(-1, &set, SFD_CLOEXEC);
    if (sfd < 0) {
        std::perror("tempo-top: signalfd");
        return 1;
    }

    Terminal term;
    std::fputs("\x1b[Hsampling...", stdout);
    std::fflush(stdout);
    auto before = tempo::top::take_sample(o.sources);
    std::optional<tempo::top::View> view;
    auto next = Clock::now() + std::chrono::milliseconds(o.interval_ms);
    std::uint64_t frames = 0;
    // Keys only from a terminal we are the foreground of; reading it from
    // the background (after Ctrl-Z and bg) fails instead of stopping us.
    const bool keys = ::isatty(STDIN_FILENO) && ::tcgetpgrp(STDIN_FILENO) == ::getpgrp();
    std::signal(SIGTTIN, SIG_IGN);
    for (;;) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(next - Clock::now());
        pollfd fds[2] = {{sfd, POLLIN, 0}, {STDIN_FILENO, POLLIN, 0}};
        const int ready =
            ::poll(fds, keys ? 2 : 1, static_cast<int>(std::max<std::int64_t>(0, left.count())));
        if (ready < 0 && errno != EINTR)
            break;
        bool redraw = false;
        if (ready > 0 && (fds[0].revents & POLLIN)) {
            signalfd_siginfo si{};
            if (::read(sfd, &si, sizeof(si)) == sizeof(si)) {
                const auto sig = static_cast<int>(si.ssi_signo);
                if (sig == SIGWINCH || sig == SIGCONT) {
                    term.enter();
                    std::fputs("\x1b[2J", stdout);
                    redraw = true;
                } else if (sig == SIGTSTP) {
                    term.leave();
                    ::kill(::getpid(), SIGSTOP);
                    continue;
                } else {
                    break; // SIGINT, SIGTERM, SIGHUP
                }
            }
        }
        if (keys && ready > 0 && (fds[1].revents & POLLIN)) {
            char c = 0;
            if (::read(STDIN_FILENO, &c, 1) == 1 && (c == 'q' || c == 'Q' || c == 3))
                break;
        }
        if (Clock::now() >= next) {
            auto now = tempo::top::take_sample(o.sources);
            view = tempo::top::compute_view(before, now);
            before = std::move(now);
            next += std::chrono::milliseconds(o.interval_ms);
            if (next < Clock::now())
                next = Clock::now() + std::chrono::milliseconds(o.interval_ms);
            redraw = true;
            frames++;
        }
        if (redraw && view)
            draw(tempo::top::render(*view, Terminal::size().second));
        if (o.iterations && frames >= *o.iterations)
            break;
    }
    term.leave();
    ::close(sfd);
    // With -n the last frame stays on the normal screen.
    if (o.iterations && view) {
        for (const auto& line : tempo::top::render(*view, Terminal::size().second))
            std::cout << line << "\n";
        std::cout.flush();
    }
    return std::cout ? 0 : 1;
}

} // namespace

int main(int argc, char** argv)
{
    Options options;
    try {
        options = parse(argc, argv);
    } catch (const UsageError& e) {
        std::cerr << "tempo-top: " << e.what() << "\n\n" << usage_text;
        return 2;
    }
    try {
        if (options.json)
            return run_json(options);
        if (!::isatty(STDOUT_FILENO) || (options.iterations && *options.iterations == 1))
            return run_plain(options);
        return run_live(options);
    } catch (const std::exception& e) {
        std::cerr << "tempo-top: " << e.what() << "\n";
        return 1;
    }
}
