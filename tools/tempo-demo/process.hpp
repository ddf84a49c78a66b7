// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * tempo-demo's processes: the scenario's game and compositors run as
 * children of the demo, each with a DRM file of its own, and talk to it
 * over a UNIX socket. A message is a tag and a payload; the VR compositor
 * passes its DRM file descriptor with its first message (SCM_RIGHTS), so
 * that the demo, which holds CAP_SYS_NICE and the children do not, can
 * raise that file's priority (DRM_IOCTL_TEMPO_SCHED), as a VR runtime does
 * for its compositor.
 */
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <sys/types.h>

#include <tempo/unique_fd.hpp>

namespace tempo::demo {

/// What a message says.
enum class Tag : std::uint8_t {
    Ready,  ///< child: set up (the VR compositor passes its DRM file with it)
    Go,     ///< parent: start measuring
    Stop,   ///< parent: stop and report
    Result, ///< child: what it measured (the payload)
    Failed, ///< child: why it gave up (the payload)
};

/// Builds a payload: integers, doubles, strings and arrays of doubles.
class Writer {
public:
    Writer& u64(std::uint64_t v);
    Writer& f64(double v);
    Writer& str(const std::string& s);
    Writer& doubles(const std::vector<double>& v);
    /// One name for every type, for a field list shared with Reader::field().
    Writer& field(std::uint64_t v) { return u64(v); }
    Writer& field(const std::string& s) { return str(s); }
    Writer& field(const std::vector<double>& v) { return doubles(v); }
    template <typename Enum>
    requires std::is_enum_v<Enum> Writer& field(Enum v)
    {
        return u64(static_cast<std::uint64_t>(static_cast<std::int64_t>(v)));
    }
    [[nodiscard]] const std::vector<std::uint8_t>& bytes() const noexcept { return bytes_; }

private:
    std::vector<std::uint8_t> bytes_;
};

/// Reads a payload in the order it was written; throws std::runtime_error past its end.
class Reader {
public:
    explicit Reader(const std::vector<std::uint8_t>& bytes) : bytes_(bytes) {}
    std::uint64_t u64();
    double f64();
    std::string str();
    std::vector<double> doubles();
    /// One name for every type, for a field list shared with Writer::field().
    Reader& field(std::uint64_t& v) { return set(v, u64()); }
    Reader& field(std::string& s) { return set(s, str()); }
    Reader& field(std::vector<double>& v) { return set(v, doubles()); }
    template <typename Enum>
    requires std::is_enum_v<Enum> Reader& field(Enum& v)
    {
        return set(v, static_cast<Enum>(static_cast<std::int64_t>(u64())));
    }

private:
    void take(void* to, std::size_t size);
    template <typename T>
    Reader& set(T& to, T value)
    {
        to = std::move(value);
        return *this;
    }

    const std::vector<std::uint8_t>& bytes_;
    std::size_t at_{0};
};

struct Message {
    Tag tag{Tag::Failed};
    std::vector<std::uint8_t> payload;
    /// The descriptor that came with it, if any.
    UniqueFd fd;
};

/// One end of a connected stream socket pair.
class Channel {
public:
    explicit Channel(UniqueFd fd) : fd_(std::move(fd)) {}

    /// Sends @tag and @payload, and @pass_fd if not -1 (SCM_RIGHTS); throws tempo::Error.
    void send(Tag tag, const std::vector<std::uint8_t>& payload = {}, int pass_fd = -1) const;
    /// The next message; throws std::runtime_error when the other end closed.
    [[nodiscard]] Message receive() const;
    /// Whether a message (or the other end's close) is waiting.
    [[nodiscard]] bool pending() const;
    void close() { fd_.reset(); }

private:
    UniqueFd fd_;
};

/**
 * ChildProcess - a forked child running one function, and the channel to it
 *
 * The child runs @body with its end of the channel and exits with the
 * value it returns (1, after sending Tag::Failed, if it throws). The
 * destructor closes the channel, which tells a child still running to
 * give up, and reaps it.
 */
class ChildProcess {
public:
    ChildProcess(std::string name, const std::function<int(const Channel&)>& body);
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;
    ~ChildProcess();

    [[nodiscard]] const std::string& name() const noexcept { return name_; }
    [[nodiscard]] const Channel& channel() const noexcept { return *channel_; }
    /// The next message, which must be @tag: a Tag::Failed one throws its reason.
    Message expect(Tag tag) const;
    /// Waits for the child's exit; its status (128 + N when killed by signal N).
    int wait();

private:
    std::string name_;
    pid_t pid_{-1};
    std::optional<Channel> channel_;
};

/// Drops CAP_SYS_NICE from the calling process: the scenario's clients are
/// ordinary programs, only the demo (their "VR runtime") may raise them.
void drop_sys_nice();

} // namespace tempo::demo
