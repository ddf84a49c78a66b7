// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * tempo-demo's processes: the scenario's game and compositors run as
 * children of the demo, each with a DRM file of its own, and talk to it
 * over a UNIX socket. A message is a tag and a JSON payload, one JSON
 * document a line; the VR compositor passes its DRM file descriptor with
 * its first message (SCM_RIGHTS), so that the demo, which holds
 * CAP_SYS_NICE and the children do not, can raise that file's priority
 * (DRM_IOCTL_TEMPO_SCHED), as a VR runtime does for its compositor.
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
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
    Failed, ///< child: why it gave up (the payload, a string)
};

/// The name of @tag on the wire: "ready", "go", "stop", "result", "failed".
const char* tag_name(Tag tag);

/// A message that is not one of the protocol's, or that the other end cut short.
class MessageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct Message {
    Tag tag{Tag::Failed};
    /// What the message carries; null when nothing.
    nlohmann::json payload;
    /// The descriptor that came with it, if any.
    UniqueFd fd;
};

/**
 * Channel - one end of a connected stream socket pair
 *
 * A message is one JSON document on a line of its own (JSON Lines), an
 * object with the tag's name and the payload, left out when null:
 * {"payload":{...},"tag":"result"}. A descriptor passed with a message
 * travels with its first bytes.
 */
class Channel {
public:
    explicit Channel(UniqueFd fd) : fd_(std::move(fd)) {}

    /// Sends @tag and @payload, and @pass_fd if not -1 (SCM_RIGHTS); throws tempo::Error.
    void send(Tag tag, const nlohmann::json& payload = nullptr, int pass_fd = -1) const;
    /**
     * The next message. Throws std::runtime_error when the other end closed
     * between two messages, MessageError when it closed in the middle of one
     * or sent a line that is no message, tempo::Error when reading fails.
     */
    [[nodiscard]] Message receive();
    /// Whether a message (or the other end's close) is waiting.
    [[nodiscard]] bool pending() const;
    [[nodiscard]] int fd() const noexcept { return fd_.get(); }
    void close() { fd_.reset(); }

private:
    /// Appends what the socket holds to buffer_, waiting for it.
    void read_more();

    UniqueFd fd_;
    /// Bytes received and not yet taken as messages; no newline before scanned_.
    std::string buffer_;
    std::size_t scanned_{0};
    /// Descriptors received, with the offset in buffer_ of their message.
    std::vector<std::pair<std::size_t, UniqueFd>> fds_;
};

/// Both ends of a new connected stream socket pair; throws tempo::Error saying it was for @what.
[[nodiscard]] std::pair<UniqueFd, UniqueFd> socket_pair(const std::string& what);

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
    ChildProcess(std::string name, const std::function<int(Channel&)>& body);
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;
    ~ChildProcess();

    [[nodiscard]] const std::string& name() const noexcept { return name_; }
    [[nodiscard]] const Channel& channel() const noexcept { return *channel_; }
    /**
     * The next message, which must be @tag: a Tag::Failed one throws its
     * reason, any other error (the child gone, a message cut short or
     * malformed) a std::runtime_error that names the child.
     */
    Message expect(Tag tag);
    /// The payload of the next message, which must be @tag, as a T.
    template <typename T>
    T expect(Tag tag)
    {
        const Message m = expect(tag);
        try {
            return m.payload.get<T>();
        } catch (const std::exception& e) {
            throw std::runtime_error("the " + name_ + " sent a malformed " + tag_name(tag) + ": " +
                                     e.what());
        }
    }
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
