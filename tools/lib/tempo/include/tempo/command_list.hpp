// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * Regular command lists: recorded, closed, executed on queues, cloned,
 * visited and updated.
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <tempo/command.hpp>
#include <tempo/event.hpp>
#include <tempo/submitter.hpp>
#include <tempo/sync.hpp>
#include <tempo/types.hpp>

namespace tempo {

namespace detail {
struct Recording;
class QueueCore;

/// An execution of a list: the point of the queue timeline that signals its end.
struct Execution {
    std::shared_ptr<const SubmitterTimeline> timeline;
    std::uint64_t point{0};
};

/// The events of one command of a list; only commands that have some get one.
struct SyncEntry {
    std::uint32_t command{0};
    std::vector<Event> wait;
    Event signal;
};

/// A non-owning reference to a callable, for the visit loop.
template <typename Signature>
class FunctionRef;

template <typename R, typename... Args>
class FunctionRef<R(Args...)> {
public:
    template <typename F>
    requires(!std::is_same_v<std::remove_cvref_t<F>, FunctionRef> &&
             std::is_invocable_r_v<R, F&, Args...>) FunctionRef(F&& f)
    noexcept // NOLINT(google-explicit-constructor): a reference type
        : object_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
          call_([](void* object, Args... args) -> R {
              return (*static_cast<std::remove_reference_t<F>*>(object))(
                  std::forward<Args>(args)...);
          })
    {}

    R operator()(Args... args) const { return call_(object_, std::forward<Args>(args)...); }

private:
    void* object_;
    R (*call_)(void*, Args...);
};
} // namespace detail

/// How a command list may be executed.
enum class CommandListUsage {
    /// Executed once; executing it again needs a reset() and a new recording.
    OneShot,
    /// Executed any number of times, one execution at a time.
    Reusable,
    /// Executed any number of times, several executions at a time.
    Simultaneous,
};

/// Properties fixed when a command list is created (a clone inherits them).
struct CommandListOptions {
    /// clone() is allowed.
    bool cloneable = false;
    CommandListUsage usage = CommandListUsage::Reusable;
};

/**
 * CommandUpdate - a change to one recorded command (CommandList::update)
 *
 * Only the fields that are set change. @groups and @args apply to
 * dispatches; @args must have the recorded number of dwords (the kernel and
 * the packet length are fixed). @wait and @signal replace the command's
 * events; segments are fixed when the list is closed, so a command can only
 * trade wait events for other wait events (at least one) and a signal event
 * for another one.
 */
struct CommandUpdate {
    CommandId id{};
    std::optional<Groups> groups{};
    std::optional<std::span<const std::uint32_t>> args{};
    std::optional<std::span<const Event>> wait{};
    std::optional<Event> signal{};
};

/// One command as visit() shows it: its id, its descriptor and its recorded events.
struct VisitedCommand {
    CommandId id;
    const Command& command;
    std::span<const Event> wait;
    const Event& signal;
};

/// The events that the default operation of visit() uses; the callbacks may change them.
struct VisitSync {
    std::vector<Event> wait;
    Event signal;
};

/// What visit() does with a command that has no concrete visitor.
enum class VisitDefault {
    /// Nothing (the callbacks still run).
    Ignore,
    /// Appends the command, with the events of VisitSync, to VisitOptions::target.
    Reappend,
};

/**
 * VisitOptions - the default operation of visit() and the callbacks around it
 *
 * For each command without a concrete visitor, in recording order:
 * @before (if set), the default operation, @after (if set). Both callbacks
 * get the command and the VisitSync that the default operation uses (the
 * command's own events at first): @before may rewrite them, for example to
 * map the events of the source list to the events of the target; @after
 * sees what was used and may append more commands to the target.
 */
struct VisitOptions {
    VisitDefault default_op = VisitDefault::Ignore;
    /// Where VisitDefault::Reappend appends; required with it.
    CommandSink* target = nullptr;
    std::function<void(const VisitedCommand&, VisitSync&)> before{};
    std::function<void(const VisitedCommand&, VisitSync&)> after{};
};

/// No concrete visitor: every command gets the default operation.
struct NoConcreteVisitor {};

/**
 * CommandList - a regular command list
 *
 * Commands are appended (see CommandSink) to an open list, close() encodes
 * them into batch memory, and a Queue executes the closed list any number
 * of times (as CommandListOptions::usage allows). reset() empties it for a
 * new recording.
 *
 * Storage: the recorded commands (an array of Command descriptors, with
 * their dword offsets) and the encoded batch are one immutable recording,
 * shared by the list, its clones and the executions still in flight. The
 * events of the commands are per list (a small table, only for commands
 * that have events), and so is the execution state.
 *
 * Segments: the kernel exec takes one batch, waits before it and signals
 * after it, so close() cuts the list into segments, one exec each: a
 * command with wait events starts a new segment, whose exec waits on them;
 * a command with a signal event ends its segment, whose exec signals it.
 * Commands without events are merged, so a list without events is one exec,
 * and each segment is as long as the events allow.
 *
 * Not thread-safe: one thread at a time records, closes, executes, clones
 * or updates a list. Cloning a list that the GPU executes is fine.
 * Move-only; a moved-from list may only be assigned or destroyed.
 */
class CommandList final : public CommandSink {
public:
    explicit CommandList(std::shared_ptr<Submitter> submitter, CommandListOptions options = {});
    CommandList(CommandList&& other) noexcept;
    CommandList& operator=(CommandList&& other) noexcept;
    CommandList(const CommandList&) = delete;
    CommandList& operator=(const CommandList&) = delete;
    /// Safe while executions are in flight: the queues keep the batch memory.
    ~CommandList() override;

    /// Encodes the commands into batch memory. UsageError if already closed.
    void close();
    /// Empties the list and opens it again; the executions in flight keep the old recording.
    void reset();

    /**
     * A new list with the same commands, events and options (cloneable
     * included), closed. Shares the immutable recording (commands and
     * batch memory), which the clone keeps alive: the source may be
     * destroyed first. Copies the events table; starts with no execution.
     * Allowed while the source executes, with no synchronisation. Throws
     * UsageError for an open list or one created without
     * CommandListOptions::cloneable. (Immediate lists, Queue, have no
     * clone().)
     */
    [[nodiscard]] CommandList clone() const;

    /**
     * Applies @updates, all or none, in one call. The list must be closed
     * (UsageError) and not executing (Error EBUSY). Updating dispatch groups
     * or arguments patches the batch in place when the list is its only
     * user, and otherwise first copies the recording (copy-on-write), so a
     * clone and its source never see each other's updates.
     */
    void update(std::span<const CommandUpdate> updates);
    void update(const CommandUpdate& one) { update(std::span{&one, 1}); }

    /**
     * Visits the commands of a closed list in recording order (UsageError
     * for an open one). For a command of kind K, if @concrete can be called
     * as ``concrete(const K&, const VisitedCommand&)`` that call replaces
     * everything else (a concrete visitor); otherwise @options.before, the
     * default operation and @options.after run. @concrete is typically an
     * overload set of lambdas.
     */
    template <typename Concrete = NoConcreteVisitor>
    void visit(const VisitOptions& options, Concrete&& concrete = {}) const
    {
        check_visit(options);
        for_each_command([&](const VisitedCommand& visited) {
            std::visit(
                [&](const auto& kind) {
                    using Kind = std::remove_cvref_t<decltype(kind)>;
                    if constexpr (std::is_invocable_v<Concrete&, const Kind&,
                                                      const VisitedCommand&>)
                        concrete(kind, visited);
                    else
                        visit_default(options, visited);
                },
                visited.command);
        });
    }

    [[nodiscard]] bool closed() const noexcept { return closed_; }
    /// Whether an execution of this list (not of its clones) is still running; polls.
    [[nodiscard]] bool executing();
    [[nodiscard]] const CommandListOptions& options() const noexcept { return options_; }
    [[nodiscard]] const std::shared_ptr<Submitter>& submitter() const noexcept
    {
        return submitter_;
    }

    /// Number of commands.
    [[nodiscard]] std::size_t size() const noexcept;
    /// The command descriptors, in recording order.
    [[nodiscard]] std::span<const Command> commands() const noexcept;
    /// The wait events of command @id (empty if none).
    [[nodiscard]] std::span<const Event> wait_events(CommandId id) const;
    /// The signal event of command @id (empty if none).
    [[nodiscard]] const Event& signal_event(CommandId id) const;

    /// Execs per execution (closed lists).
    [[nodiscard]] std::size_t segment_count() const;
    /// The encoded batch, every segment ending with END (closed lists).
    [[nodiscard]] std::span<const std::uint32_t> encoded() const;
    /// GPU address of the encoded batch (closed lists).
    [[nodiscard]] GpuAddress gpu_address() const;
    /// Whether this list and @other share one recording (a clone before any copy-on-write).
    [[nodiscard]] bool shares_recording_with(const CommandList& other) const noexcept;

private:
    friend class detail::QueueCore;
    struct CloneTag {};

    CommandList(const CommandList& source, CloneTag);

    CommandId record(Command&& command, const Sync& sync) override;
    void require_closed(const char* function) const;
    const detail::SyncEntry* find_sync(CommandId id) const;
    void check_visit(const VisitOptions& options) const;
    void for_each_command(detail::FunctionRef<void(const VisitedCommand&)> fn) const;
    static void visit_default(const VisitOptions& options, const VisitedCommand& visited);
    void validate_update(const CommandUpdate& update, std::size_t index) const;
    void copy_on_write();

    std::shared_ptr<Submitter> submitter_;
    CommandListOptions options_;
    SubmitLimits limits_;
    std::shared_ptr<detail::Recording> recording_;
    /// Events of the commands that have some, by command index.
    std::vector<detail::SyncEntry> sync_;
    /// Executions of this list that may still run.
    std::vector<detail::Execution> executions_;
    bool closed_ = false;
    bool executed_ = false;
};

} // namespace tempo
