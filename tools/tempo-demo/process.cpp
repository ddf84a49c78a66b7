// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 */
#include "process.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string_view>

#include <linux/capability.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <tempo/error.hpp>

namespace tempo::demo {

namespace {

using nlohmann::json;

constexpr std::pair<Tag, const char*> tag_names[] = {
    {Tag::Ready, "ready"},   {Tag::Go, "go"},         {Tag::Stop, "stop"},
    {Tag::Result, "result"}, {Tag::Failed, "failed"},
};

/// The tag named @name, if one is.
std::optional<Tag> tag_of(std::string_view name)
{
    for (const auto& [tag, n] : tag_names)
        if (name == n)
            return tag;
    return std::nullopt;
}

/// The message on @line: an object {"tag": NAME[, "payload": VALUE]}.
Message parse_message(std::string_view line)
{
    json document;
    try {
        document = json::parse(line);
    } catch (const json::parse_error& e) {
        throw MessageError(std::string{"a message that is not JSON: "} + e.what());
    }
    const auto tag = document.is_object() ? document.find("tag") : document.end();
    if (tag == document.end() || !tag->is_string())
        throw MessageError("a message without a tag: " + std::string{line.substr(0, 80)});
    Message m;
    if (const auto known = tag_of(tag->get_ref<const std::string&>()))
        m.tag = *known;
    else
        throw MessageError("a message of unknown tag " + tag->dump());
    if (const auto payload = document.find("payload"); payload != document.end())
        m.payload = std::move(*payload);
    return m;
}

/// The offset in @buffer of the message that holds byte @at: after the
/// last newline before it.
std::size_t message_start(const std::string& buffer, std::size_t at)
{
    const std::size_t newline = at ? buffer.rfind('\n', at - 1) : std::string::npos;
    return newline == std::string::npos ? 0 : newline + 1;
}

/// The descriptor that came with @msg (SCM_RIGHTS), if any.
UniqueFd passed_fd(const msghdr& msg)
{
    const cmsghdr* c = CMSG_FIRSTHDR(&msg);
    if (!c || c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
        return UniqueFd{};
    int fd = -1;
    std::memcpy(&fd, CMSG_DATA(c), sizeof(int));
    return UniqueFd(fd);
}

void write_all(int fd, const char* data, std::size_t size)
{
    while (size) {
        const ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            throw Error(errno, "send", "writing to a scenario process");
        data += n;
        size -= static_cast<std::size_t>(n);
    }
}

/// Closes every descriptor but stdin, stdout, stderr and @fd: a child
/// must not keep the demo's own DRM file, nor the other children's channels.
void keep_only(int fd)
{
    const auto last = static_cast<unsigned>(fd);
    if (last > 3)
        ::close_range(3, last - 1, 0);
    ::close_range(last + 1, ~0U, 0);
}

} // namespace

const char* tag_name(Tag tag)
{
    for (const auto& [t, name] : tag_names)
        if (t == tag)
            return name;
    return "?";
}

void Channel::send(Tag tag, const json& payload, int pass_fd) const
{
    json document = json::object();
    document["tag"] = tag_name(tag);
    if (!payload.is_null())
        document["payload"] = payload;
    const std::string line = document.dump(-1, ' ', false, json::error_handler_t::replace) + '\n';
    iovec iov{.iov_base = const_cast<char*>(line.data()), .iov_len = line.size()};
    alignas(cmsghdr) std::array<char, CMSG_SPACE(sizeof(int))> control{};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    if (pass_fd >= 0) {
        // The descriptor travels with the message's first bytes.
        msg.msg_control = control.data();
        msg.msg_controllen = control.size();
        cmsghdr* c = CMSG_FIRSTHDR(&msg);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        std::memcpy(CMSG_DATA(c), &pass_fd, sizeof(int));
    }
    ssize_t n;
    do
        n = ::sendmsg(fd_.get(), &msg, MSG_NOSIGNAL);
    while (n < 0 && errno == EINTR);
    if (n < 0)
        throw Error(errno, "sendmsg", "writing to a scenario process");
    const auto sent = static_cast<std::size_t>(n);
    write_all(fd_.get(), line.data() + sent, line.size() - sent);
}

void Channel::read_more()
{
    constexpr std::size_t chunk = 64 * 1024;
    const std::size_t old = buffer_.size();
    buffer_.resize(old + chunk);
    iovec iov{.iov_base = buffer_.data() + old, .iov_len = chunk};
    alignas(cmsghdr) std::array<char, CMSG_SPACE(sizeof(int))> control{};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.data();
    msg.msg_controllen = control.size();
    ssize_t n;
    do
        n = ::recvmsg(fd_.get(), &msg, MSG_CMSG_CLOEXEC);
    while (n < 0 && errno == EINTR);
    const int error = errno;
    buffer_.resize(old + static_cast<std::size_t>(std::max<ssize_t>(n, 0)));
    if (n < 0)
        throw Error(error, "recvmsg", "reading from a scenario process");
    UniqueFd fd = passed_fd(msg);
    if (n == 0 && old == 0)
        throw std::runtime_error("the other process closed its end");
    if (n == 0)
        throw MessageError("a message cut short: the other end closed after " +
                           std::to_string(old) + " bytes of it");
    // The socket returns the bytes that carried a descriptor last: the
    // descriptor belongs to the message of the last byte read.
    if (fd)
        fds_.emplace_back(message_start(buffer_, buffer_.size() - 1), std::move(fd));
}

Message Channel::receive()
{
    std::size_t end;
    while ((end = buffer_.find('\n', scanned_)) == std::string::npos) {
        scanned_ = buffer_.size();
        read_more();
    }
    const std::string line = buffer_.substr(0, end);
    buffer_.erase(0, end + 1);
    scanned_ = 0;
    UniqueFd fd;
    for (auto it = fds_.begin(); it != fds_.end();) {
        if (it->first == 0) {
            fd = std::move(it->second);
            it = fds_.erase(it);
        } else {
            it->first -= end + 1;
            ++it;
        }
    }
    Message m = parse_message(line);
    m.fd = std::move(fd);
    return m;
}

bool Channel::pending() const
{
    if (!buffer_.empty())
        return true;
    pollfd p{.fd = fd_.get(), .events = POLLIN, .revents = 0};
    return ::poll(&p, 1, 0) > 0;
}

std::pair<UniqueFd, UniqueFd> socket_pair(const std::string& what)
{
    int fds[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) < 0)
        throw Error(errno, "socketpair", what);
    return {UniqueFd(fds[0]), UniqueFd(fds[1])};
}

ChildProcess::ChildProcess(std::string name, const std::function<int(Channel&)>& body)
    : name_(std::move(name))
{
    auto [parent_end, child_end] = socket_pair("connecting the " + name_);
    // Whatever stdout holds would be printed twice otherwise.
    std::fflush(stdout);
    pid_ = ::fork();
    if (pid_ < 0)
        throw Error(errno, "fork", "starting the " + name_);
    if (pid_ == 0) {
        parent_end.reset();
        keep_only(child_end.get());
        Channel channel(std::move(child_end));
        int status = 1;
        try {
            status = body(channel);
        } catch (const std::exception& e) {
            try {
                channel.send(Tag::Failed, e.what());
            } catch (const std::exception&) {
                std::printf("%s failed: %s\n", name_.c_str(), e.what());
            }
        }
        std::fflush(stdout);
        // No destructors of the parent's objects, no atexit handlers: the
        // child owns none of them.
        ::_exit(status);
    }
    channel_.emplace(std::move(parent_end));
}

ChildProcess::~ChildProcess()
{
    if (pid_ <= 0)
        return;
    channel_->close();
    // A child measuring frames does not read its channel: do not wait for it.
    ::kill(pid_, SIGTERM);
    wait();
}

Message ChildProcess::expect(Tag tag)
{
    Message m;
    try {
        m = channel_->receive();
    } catch (const MessageError& e) {
        throw std::runtime_error("the " + name_ + " sent " + e.what());
    } catch (const std::runtime_error& e) {
        throw std::runtime_error("the " + name_ + " exited early (" + e.what() + ")");
    }
    if (m.tag == Tag::Failed)
        throw std::runtime_error(
            "the " + name_ + " failed: " +
            (m.payload.is_string() ? m.payload.get<std::string>() : m.payload.dump()));
    if (m.tag != tag)
        throw std::runtime_error("the " + name_ + " sent an unexpected message: " +
                                 tag_name(m.tag) + ", not " + tag_name(tag));
    return m;
}

int ChildProcess::wait()
{
    int status = 0;
    pid_t r;
    do
        r = ::waitpid(pid_, &status, 0);
    while (r < 0 && errno == EINTR);
    pid_ = -1;
    if (r < 0)
        return 1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

void drop_sys_nice()
{
    __user_cap_header_struct header{.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
    __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3]{};
    if (::syscall(SYS_capget, &header, data) < 0)
        throw Error(errno, "capget", "reading the capabilities of a scenario process");
    const auto bit = 1U << (CAP_SYS_NICE % 32);
    data[CAP_SYS_NICE / 32].effective &= ~bit;
    data[CAP_SYS_NICE / 32].permitted &= ~bit;
    data[CAP_SYS_NICE / 32].inheritable &= ~bit;
    if (::syscall(SYS_capset, &header, data) < 0)
        throw Error(errno, "capset", "dropping CAP_SYS_NICE");
}

} // namespace tempo::demo
