// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * tempo-top's terminal: the screen it draws on, the keys and the signals
 * it handles itself.
 */
#pragma once

#include <cerrno>
#include <csignal>
#include <cstddef>
#include <cstdio>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <termios.h>
#include <unistd.h>

#include <tempo/unique_fd.hpp>

namespace tempo::top {

/// Whether this process is the foreground of the terminal on standard input:
/// only then may it read keys and set the terminal up (from the background,
/// tcsetattr() would stop it with SIGTTOU).
inline bool foreground()
{
    return ::isatty(STDIN_FILENO) && ::tcgetpgrp(STDIN_FILENO) == ::getpgrp();
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
        if (foreground() && ::tcgetattr(STDIN_FILENO, &saved_) == 0) {
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

    /// Draws @frame from the top left, as many lines as fit, and the key help.
    static void draw(const std::vector<std::string>& frame)
    {
        const std::size_t rows = size().first;
        const std::size_t body = rows > 1 ? rows - 1 : 1;
        std::string out = "\x1b[H";
        for (std::size_t i = 0; i < frame.size() && i < body; i++)
            out += frame[i] + "\x1b[K\n";
        out += "\x1b[J\x1b[7m q: quit \x1b[0m";
        std::fwrite(out.data(), 1, out.size(), stdout);
        std::fflush(stdout);
    }

private:
    termios saved_{};
    bool have_termios_ = false;
    bool entered_ = false;
};

/// The signals tempo-top handles itself (quit, resize, suspend and resume),
/// blocked and read from a signalfd.
class SignalFd {
public:
    SignalFd()
    {
        sigset_t set;
        sigemptyset(&set);
        for (const int sig : {SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGTSTP, SIGCONT})
            sigaddset(&set, sig);
        if (::sigprocmask(SIG_BLOCK, &set, nullptr) != 0)
            throw std::system_error(errno, std::generic_category(), "sigprocmask");
        fd_ = UniqueFd(::signalfd(-1, &set, SFD_CLOEXEC));
        if (!fd_)
            throw std::system_error(errno, std::generic_category(), "signalfd");
    }

    [[nodiscard]] int fd() const { return fd_.get(); }

    /// The signal that arrived, 0 if none could be read.
    [[nodiscard]] int read() const
    {
        signalfd_siginfo si{};
        if (::read(fd_.get(), &si, sizeof(si)) != sizeof(si))
            return 0;
        return static_cast<int>(si.ssi_signo);
    }

private:
    UniqueFd fd_;
};

} // namespace tempo::top
