// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 */
#include "process.hpp"

#include <array>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <stdexcept>

#include <linux/capability.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <tempo/error.hpp>

namespace tempo::demo {

Writer& Writer::u64(std::uint64_t v)
{
    const auto* p = reinterpret_cast<const std::uint8_t*>(&v);
    bytes_.insert(bytes_.end(), p, p + sizeof(v));
    return *this;
}

Writer& Writer::f64(double v)
{
    const auto* p = reinterpret_cast<const std::uint8_t*>(&v);
    bytes_.insert(bytes_.end(), p, p + sizeof(v));
    return *this;
}

Writer& Writer::str(const std::string& s)
{
    u64(s.size());
    bytes_.insert(bytes_.end(), s.begin(), s.end());
    return *this;
}

Writer& Writer::doubles(const std::vector<double>& v)
{
    u64(v.size());
    for (const double d : v)
        f64(d);
    return *this;
}

void Reader::take(void* to, std::size_t size)
{
    if (bytes_.size() - at_ < size)
        throw std::runtime_error("a message of a scenario process is truncated");
    std::memcpy(to, bytes_.data() + at_, size);
    at_ += size;
}

std::uint64_t Reader::u64()
{
    std::uint64_t v = 0;
    take(&v, sizeof(v));
    return v;
}

double Reader::f64()
{
    double v = 0;
    take(&v, sizeof(v));
    return v;
}

std::string Reader::str()
{
    std::string s(u64(), '\0');
    if (!s.empty())
        take(s.data(), s.size());
    return s;
}

std::vector<double> Reader::doubles()
{
    std::vector<double> v(u64());
    for (double& d : v)
        d = f64();
    return v;
}

namespace {

/// The header of a message on the stream: its tag and the payload's size.
struct Header {
    std::uint64_t tag;
    std::uint64_t size;
};

void write_all(int fd, const std::uint8_t* data, std::size_t size)
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

void read_all(int fd, std::uint8_t* data, std::size_t size)
{
    while (size) {
        const ssize_t n = ::recv(fd, data, size, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            throw Error(errno, "recv", "reading from a scenario process");
        if (n == 0)
            throw std::runtime_error("the other process closed its end");
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

void Channel::send(Tag tag, const std::vector<std::uint8_t>& payload, int pass_fd) const
{
    Header header{static_cast<std::uint64_t>(tag), payload.size()};
    iovec iov{.iov_base = &header, .iov_len = sizeof(header)};
    alignas(cmsghdr) std::array<char, CMSG_SPACE(sizeof(int))> control{};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    if (pass_fd >= 0) {
        // The descriptor travels with the header's bytes.
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
    const auto* rest = reinterpret_cast<const std::uint8_t*>(&header) + n;
    write_all(fd_.get(), rest, sizeof(header) - static_cast<std::size_t>(n));
    write_all(fd_.get(), payload.data(), payload.size());
}

Message Channel::receive() const
{
    Header header{};
    iovec iov{.iov_base = &header, .iov_len = sizeof(header)};
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
    if (n < 0)
        throw Error(errno, "recvmsg", "reading from a scenario process");
    if (n == 0)
        throw std::runtime_error("the other process closed its end");
    Message m;
    if (const cmsghdr* c = CMSG_FIRSTHDR(&msg);
        c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
        int fd = -1;
        std::memcpy(&fd, CMSG_DATA(c), sizeof(int));
        m.fd.reset(fd);
    }
    auto* rest = reinterpret_cast<std::uint8_t*>(&header) + n;
    read_all(fd_.get(), rest, sizeof(header) - static_cast<std::size_t>(n));
    m.tag = static_cast<Tag>(header.tag);
    m.payload.resize(header.size);
    read_all(fd_.get(), m.payload.data(), m.payload.size());
    return m;
}

bool Channel::pending() const
{
    pollfd p{.fd = fd_.get(), .events = POLLIN, .revents = 0};
    return ::poll(&p, 1, 0) > 0;
}

ChildProcess::ChildProcess(std::string name, const std::function<int(const Channel&)>& body)
    : name_(std::move(name))
{
    int fds[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) < 0)
        throw Error(errno, "socketpair", "connecting the " + name_);
    UniqueFd parent_end(fds[0]), child_end(fds[1]);
    // Whatever stdout holds would be printed twice otherwise.
    std::fflush(stdout);
    pid_ = ::fork();
    if (pid_ < 0)
        throw Error(errno, "fork", "starting the " + name_);
    if (pid_ == 0) {
        parent_end.reset();
        keep_only(child_end.get());
        const Channel channel(std::move(child_end));
        int status = 1;
        try {
            status = body(channel);
        } catch (const std::exception& e) {
            try {
                channel.send(Tag::Failed, Writer{}.str(e.what()).bytes());
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

Message ChildProcess::expect(Tag tag) const
{
    Message m;
    try {
        m = channel_->receive();
    } catch (const std::runtime_error& e) {
        throw std::runtime_error("the " + name_ + " exited early (" + e.what() + ")");
    }
    if (m.tag == Tag::Failed)
        throw std::runtime_error("the " + name_ + " failed: " + Reader(m.payload).str());
    if (m.tag != tag)
        throw std::runtime_error("the " + name_ + " sent an unexpected message");
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
