// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * tempo-top's terminal: the screen it draws on, the keys and the signals
 * it handles itself, and what the keys do to the layout of a frame.
 */
#pragma once

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <termios.h>
#include <unistd.h>

#include <tempo/unique_fd.hpp>

#include "top_output.hpp"

namespace tempo::top {

/// What a key asks of the live view.
enum class Key {
    Quit,     ///< q, Q, Ctrl-C
    Queues,   ///< 1: show or fold the queues
    Up,       ///< up arrow, k: the clients one line up
    Down,     ///< down arrow, j
    PageUp,   ///< the clients one screen up
    PageDown, ///< one screen down
    Home,     ///< the first client on top
    End,      ///< the last client at the bottom
};

/// The length of the escape sequence at the start of @in (ESC [ or ESC O,
/// parameters, then a final byte); 1 for an ESC alone.
inline std::size_t escape_length(std::string_view in)
{
    if (in.size() < 2 || (in[1] != '[' && in[1] != 'O'))
        return 1;
    std::size_t i = 2;
    while (i < in.size() && !(in[i] >= 0x40 && in[i] <= 0x7e))
        i++;
    return std::min(i + 1, in.size());
}

/// The keys in @in, what the terminal sent: letters, and the sequences of
/// the arrows, PgUp, PgDn, Home and End of xterm and VT220 terminals, in
/// normal and application cursor mode. Other keys are skipped.
inline std::vector<Key> decode_keys(std::string_view in)
{
    static constexpr std::pair<std::string_view, Key> sequences[] = {
        {"\x1b[A", Key::Up},    {"\x1bOA", Key::Up},      {"\x1b[B", Key::Down},
        {"\x1bOB", Key::Down},  {"\x1b[5~", Key::PageUp}, {"\x1b[6~", Key::PageDown},
        {"\x1b[H", Key::Home},  {"\x1bOH", Key::Home},    {"\x1b[1~", Key::Home},
        {"\x1b[7~", Key::Home}, {"\x1b[F", Key::End},     {"\x1bOF", Key::End},
        {"\x1b[4~", Key::End},  {"\x1b[8~", Key::End}};
    static constexpr std::pair<char, Key> letters[] = {{'q', Key::Quit},    {'Q', Key::Quit},
                                                       {'\x03', Key::Quit}, {'1', Key::Queues},
                                                       {'k', Key::Up},      {'j', Key::Down}};
    std::vector<Key> keys;
    while (!in.empty()) {
        const auto length = in[0] == '\x1b' ? escape_length(in) : 1;
        const auto key = in.substr(0, length);
        for (const auto& [text, k] : sequences)
            if (key == text)
                keys.push_back(k);
        for (const auto& [c, k] : letters)
            if (length == 1 && key[0] == c)
                keys.push_back(k);
        in.remove_prefix(length);
    }
    return keys;
}

/// @l after @key, on a terminal showing @v: 1 shows or folds the queues,
/// the others scroll the clients. Quit changes nothing.
inline void apply_key(Layout& l, const View& v, Key key)
{
    const auto room = client_rows(v, l).value_or(0);
    const auto page = std::max<std::size_t>(clients_shown(room), 1);
    switch (key) {
    case Key::Queues:
        l.queues = !queues_shown(v, l);
        break;
    case Key::Up:
        l.scroll -= std::min<std::size_t>(l.scroll, 1);
        break;
    case Key::Down:
        l.scroll++;
        break;
    case Key::PageUp:
        l.scroll -= std::min(l.scroll, page);
        break;
    case Key::PageDown:
        l.scroll += page;
        break;
    case Key::Home:
        l.scroll = 0;
        break;
    case Key::End:
        l.scroll = max_scroll(v, l);
        break;
    case Key::Quit:
        break;
    }
    l.scroll = std::min(l.scroll, max_scroll(v, l));
}

/// The keys line of the live view, at most @width columns (0: no limit).
inline std::string key_help(const View& v, const Layout& l, std::size_t width)
{
    std::string help = queues_shown(v, l) ? " q: quit  1: fold queues" : " q: quit  1: show queues";
    help += "  up/down, PgUp/PgDn, Home/End: scroll clients ";
    if (width && help.size() > width)
        help.resize(width);
    return help;
}

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

    /// Draws @frame from the top left, as many lines as fit, and @keys,
    /// the key help, in reverse video on the last line.
    static void draw(const std::vector<std::string>& frame, const std::string& keys)
    {
        const std::size_t rows = size().first;
        const std::size_t body = rows > 1 ? rows - 1 : 1;
        std::string out = "\x1b[H";
        for (std::size_t i = 0; i < frame.size() && i < body; i++)
            out += frame[i] + "\x1b[K\n";
        out += "\x1b[J\x1b[7m" + keys + "\x1b[0m";
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
