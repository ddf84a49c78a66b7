// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * tempo-demo's messages between its processes: a ProcessRun comes back
 * from a child as it was sent, one JSON document a line, a descriptor with
 * the message it was passed with; a message cut short or malformed is an
 * error that names the child. Over socket pairs and forked children, no
 * device needed.
 */
#include <cstddef>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compositor.hpp"
#include "process.hpp"

namespace {

using tempo::UniqueFd;
using tempo::demo::Channel;
using tempo::demo::ChildProcess;
using tempo::demo::Message;
using tempo::demo::MessageError;
using tempo::demo::ProcessRun;
using tempo::demo::Role;
using tempo::demo::Tag;

/// Both ends of a connected stream socket pair: the demo's and a child's.
struct Ends {
    Ends() : Ends(tempo::demo::socket_pair("a test's channel")) {}

    Channel demo;
    Channel child;

private:
    explicit Ends(std::pair<UniqueFd, UniqueFd> fds)
        : demo(std::move(fds.first)), child(std::move(fds.second))
    {}
};

/// Writes @bytes to the socket of @channel as they are.
void write_raw(const Channel& channel, std::string_view bytes)
{
    ASSERT_EQ(::send(channel.fd(), bytes.data(), bytes.size(), MSG_NOSIGNAL),
              static_cast<ssize_t>(bytes.size()));
}

/// What the socket of @channel holds now, read as it is.
std::string read_raw(const Channel& channel)
{
    std::string bytes(1 << 20, '\0');
    const ssize_t n = ::recv(channel.fd(), bytes.data(), bytes.size(), MSG_DONTWAIT);
    bytes.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
    return bytes;
}

/// A run with every field set, none to its default, doubles that print long.
ProcessRun sample_run()
{
    return {.role = Role::VrCompositor,
            .priority = tempo::Priority::High,
            .frames = 1000,
            .missed = 7,
            .missed_by_gpu = 2,
            .wrong = 1,
            .failed = 3,
            .skipped_vblanks = 5,
            .latency_us = {0.1, 1234.5678901234567, 1e-9, 11111.111111111111},
            .start_us = {42.0, 0.30000000000000004},
            .missed_queued_us = {1.5},
            .missed_waited_us = {2.25, 3.125},
            .missed_start_us = {4.0625},
            .missed_run_us = {5.03125},
            .missed_wake_us = {6.015625},
            .jobs = 18446744073709551615ULL,
            .failed_jobs = 9,
            .failures = "compute:0 2, \"gfx:0\" 1\n\tand \u00e9"};
}

/// A test of the channel between the demo and a child, over a socket pair.
class DemoMessage : public ::testing::Test {
protected:
    Ends ends;
    Channel& demo = ends.demo;
    Channel& child = ends.child;
};

/// A child that writes @bytes on its channel as they are, then exits.
ChildProcess child_writing(std::string bytes)
{
    return ChildProcess("game", [bytes](Channel& demo) {
        write_raw(demo, bytes);
        return 0;
    });
}

/// The message of the std::runtime_error that @f throws, or "" if none.
template <typename F>
std::string error_of(F&& f)
{
    try {
        f();
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "";
}

TEST_F(DemoMessage, AProcessRunComesBackAsItWasSent)
{
    child.send(Tag::Result, nlohmann::json(sample_run()));
    const Message m = demo.receive();
    EXPECT_EQ(m.tag, Tag::Result);
    EXPECT_FALSE(m.fd);
    EXPECT_EQ(m.payload.get<ProcessRun>(), sample_run());
}

TEST_F(DemoMessage, IsOneJsonDocumentOnALine)
{
    child.send(Tag::Result, nlohmann::json(sample_run()));
    const std::string line = read_raw(demo);
    ASSERT_TRUE(line.ends_with('\n')) << line;
    EXPECT_EQ(line.find('\n'), line.size() - 1) << line;
    const auto document = nlohmann::json::parse(line);
    EXPECT_EQ(document.at("tag"), "result");
    EXPECT_EQ(document.at("payload").at("role"), "vr-compositor");
    EXPECT_EQ(document.at("payload").at("priority"), "high");
    EXPECT_EQ(document.at("payload").at("jobs"), 18446744073709551615ULL);
    EXPECT_EQ(document.at("payload").size(), 18U);
}

TEST_F(DemoMessage, AMessageWithoutPayloadIsItsTagAlone)
{
    demo.send(Tag::Go);
    EXPECT_EQ(read_raw(child), "{\"tag\":\"go\"}\n");
}

TEST_F(DemoMessage, MessagesArriveInOrderWhateverTheReadsHold)
{
    // Two messages in one write, the second in two more.
    write_raw(child, "{\"tag\":\"ready\"}\n{\"tag\":\"res");
    write_raw(child, "ult\",\"payload\":");
    write_raw(child, "[1,2]}\n");
    EXPECT_EQ(demo.receive().tag, Tag::Ready);
    EXPECT_TRUE(demo.pending());
    const Message m = demo.receive();
    EXPECT_EQ(m.tag, Tag::Result);
    EXPECT_EQ(m.payload, nlohmann::json({1, 2}));
    EXPECT_FALSE(demo.pending());
}

TEST_F(DemoMessage, ADescriptorComesWithItsMessage)
{
    int pipe_fds[2];
    ASSERT_EQ(::pipe(pipe_fds), 0);
    const UniqueFd read_end(pipe_fds[0]), write_end(pipe_fds[1]);
    // Sent before the demo reads: the first message may come in the same read.
    child.send(Tag::Ready);
    child.send(Tag::Ready, nullptr, read_end.get());
    child.send(Tag::Ready);
    EXPECT_FALSE(demo.receive().fd);
    const Message with_fd = demo.receive();
    ASSERT_TRUE(with_fd.fd);
    struct stat sent {
    }, received{};
    ASSERT_EQ(::fstat(read_end.get(), &sent), 0);
    ASSERT_EQ(::fstat(with_fd.fd.get(), &received), 0);
    EXPECT_EQ(received.st_ino, sent.st_ino);
    EXPECT_NE(with_fd.fd.get(), read_end.get());
    EXPECT_FALSE(demo.receive().fd);
}

TEST_F(DemoMessage, AMessageCutShortIsAnError)
{
    write_raw(child, "{\"tag\":\"result\",\"payload\":{\"role\":\"game\"");
    child.close();
    EXPECT_EQ(error_of([&] { (void)demo.receive(); }),
              "a message cut short: the other end closed after 40 bytes of it");
}

TEST_F(DemoMessage, ACloseBetweenMessagesIsNoMessageError)
{
    child.send(Tag::Ready);
    child.close();
    EXPECT_EQ(demo.receive().tag, Tag::Ready);
    try {
        (void)demo.receive();
        FAIL() << "no error";
    } catch (const MessageError& e) {
        FAIL() << e.what();
    } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "the other process closed its end");
    }
}

TEST_F(DemoMessage, ALineThatIsNoMessageIsAnError)
{
    for (const auto& [line, error] : std::initializer_list<std::pair<const char*, const char*>>{
             {"{\"tag\":\"result\",}\n", "a message that is not JSON: [json.exception.parse_error"},
             {"[\"result\"]\n", "a message without a tag: [\"result\"]"},
             {"{\"tag\":3}\n", "a message without a tag: {\"tag\":3}"},
             {"{\"tag\":\"results\"}\n", "a message of unknown tag \"results\""}}) {
        write_raw(child, line);
        const std::string what = error_of([&] { (void)demo.receive(); });
        EXPECT_TRUE(what.starts_with(error)) << what;
    }
}

TEST(DemoChild, ATruncatedResultIsReportedWithTheChildsName)
{
    ChildProcess child = child_writing("{\"tag\":\"result\",\"payload\":{\"role\":");
    EXPECT_EQ(error_of([&] { (void)child.expect<ProcessRun>(Tag::Result); }),
              "the game sent a message cut short: the other end closed after 34 bytes of it");
    EXPECT_EQ(child.wait(), 0);
}

TEST(DemoChild, AResultWithoutAFieldIsReported)
{
    nlohmann::json run = sample_run();
    run.erase("frames");
    ChildProcess child = child_writing("{\"tag\":\"result\",\"payload\":" + run.dump() + "}\n");
    EXPECT_EQ(error_of([&] { (void)child.expect<ProcessRun>(Tag::Result); }),
              "the game sent a malformed result: [json.exception.out_of_range.403] key 'frames' "
              "not found");
}

TEST(DemoChild, AResultWithAnUnknownRoleOrPriorityIsReported)
{
    for (const auto& [key, value, error] :
         std::initializer_list<std::tuple<const char*, nlohmann::json, const char*>>{
             {"role", "vr", "not a role: \"vr\""},
             {"priority", "urgent", "not a priority: \"urgent\""},
             {"priority", 512,
              "[json.exception.type_error.302] type must be string, but is "
              "number"},
             {"latency_us",
              {1.0, "2"},
              "[json.exception.type_error.302] type must be number, "
              "but is string"}}) {
        nlohmann::json run = sample_run();
        run[key] = value;
        ChildProcess child = child_writing("{\"tag\":\"result\",\"payload\":" + run.dump() + "}\n");
        EXPECT_EQ(error_of([&] { (void)child.expect<ProcessRun>(Tag::Result); }),
                  std::string{"the game sent a malformed result: "} + error);
    }
}

TEST(DemoChild, AChildThatThrowsSendsWhy)
{
    ChildProcess child("game", [](Channel&) -> int { throw std::runtime_error("no device"); });
    EXPECT_EQ(error_of([&] { (void)child.expect(Tag::Ready); }), "the game failed: no device");
    EXPECT_EQ(child.wait(), 1);
}

TEST(DemoChild, AnUnexpectedTagIsReported)
{
    ChildProcess child("game", [](Channel& demo) {
        demo.send(Tag::Ready);
        return 0;
    });
    EXPECT_EQ(error_of([&] { (void)child.expect<ProcessRun>(Tag::Result); }),
              "the game sent an unexpected message: ready, not result");
}

} // namespace
