// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 */
#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>

#include <tempo/command_list.hpp>
#include <tempo/error.hpp>

#include "queue_core.hpp"
#include "recording.hpp"

namespace tempo {

namespace {

const Event no_event{};

std::uint32_t to_dword_offset(std::size_t offset)
{
    if (offset > std::numeric_limits<std::uint32_t>::max())
        throw std::length_error("tempo::CommandList::close: the encoded list is too long");
    return static_cast<std::uint32_t>(offset);
}

std::string command_text(CommandId id)
{
    return "command " + std::to_string(id.value());
}

// The segments of @count commands with the events @sync: waits start one,
// a signal ends one (see the class comment).
std::vector<detail::Segment> cut_segments(std::size_t count,
                                          std::span<const detail::SyncEntry> sync)
{
    std::vector<detail::Segment> segments;
    detail::Segment current{};
    for (std::size_t entry = 0; entry < sync.size(); entry++) {
        const std::uint32_t i = sync[entry].command;
        if (!sync[entry].wait.empty()) {
            if (i != current.first) {
                current.end = i;
                segments.push_back(current);
                current = detail::Segment{.first = i};
            }
            current.wait_entry = static_cast<std::int32_t>(entry);
        }
        if (sync[entry].signal) {
            current.end = i + 1;
            current.signal_entry = static_cast<std::int32_t>(entry);
            segments.push_back(current);
            current = detail::Segment{.first = i + 1};
        }
    }
    const auto end = static_cast<std::uint32_t>(count);
    if (current.first < end || segments.empty()) {
        current.end = end;
        segments.push_back(current);
    }
    return segments;
}

// Encodes each segment as a batch of its own (its packets, then END) with
// @writer; sets the offset of each segment and returns that of each command.
std::vector<std::uint32_t> encode_segments(std::span<const Command> commands,
                                           std::span<detail::Segment> segments,
                                           PacketWriter& writer, const SubmitLimits& limits)
{
    std::vector<std::uint32_t> offsets(commands.size());
    for (detail::Segment& segment : segments) {
        segment.offset = to_dword_offset(writer.size_dwords());
        for (std::uint32_t i = segment.first; i < segment.end; i++) {
            offsets[i] = to_dword_offset(writer.size_dwords());
            detail::encode(commands[i], writer, limits);
        }
        writer.end();
    }
    return offsets;
}

} // namespace

CommandList::CommandList(std::shared_ptr<Submitter> submitter, CommandListOptions options)
    : submitter_(std::move(submitter)), options_(options)
{
    if (!submitter_)
        throw std::invalid_argument("tempo::CommandList: no submitter");
    limits_ = submitter_->limits();
    recording_ = std::make_shared<detail::Recording>();
}

CommandList::CommandList(const CommandList& source, CloneTag)
    : CommandSink(source),
      submitter_(source.submitter_),
      options_(source.options_),
      limits_(source.limits_),
      recording_(source.recording_),
      sync_(source.sync_),
      closed_(true)
{}

CommandList::CommandList(CommandList&& other) noexcept = default;
CommandList& CommandList::operator=(CommandList&& other) noexcept = default;
CommandList::~CommandList() = default;

CommandId CommandList::record(Command&& command, const Sync& sync)
{
    constexpr const char* function = "tempo::CommandList::append";
    if (closed_)
        throw UsageError(std::string{function} +
                         ": the list is closed; reset() it to record again");
    detail::validate(command, sync, limits_, function);
    auto& commands = recording_->commands;
    if (commands.size() >= std::numeric_limits<std::uint32_t>::max())
        throw std::length_error(std::string{function} + ": too many commands");
    const auto index = static_cast<std::uint32_t>(commands.size());
    commands.push_back(std::move(command));
    if (!sync.wait.empty() || sync.signal) {
        try {
            sync_.push_back({index, {sync.wait.begin(), sync.wait.end()}, sync.signal});
        } catch (...) {
            commands.pop_back();
            throw;
        }
    }
    return CommandId{index};
}

void CommandList::close()
{
    if (closed_)
        throw UsageError("tempo::CommandList::close: the list is already closed");
    detail::Recording& recording = *recording_;
    std::vector<detail::Segment> segments = cut_segments(recording.commands.size(), sync_);
    PacketWriter writer;
    std::vector<std::uint32_t> offsets =
        encode_segments(recording.commands, segments, writer, limits_);
    auto memory = submitter_->upload(writer.dwords());

    recording.offsets = std::move(offsets);
    recording.segments = std::move(segments);
    recording.memory = std::move(memory);
    closed_ = true;
}

void CommandList::reset()
{
    recording_ = std::make_shared<detail::Recording>();
    sync_.clear();
    closed_ = false;
    executed_ = false;
}

CommandList CommandList::clone() const
{
    if (!options_.cloneable)
        throw UsageError("tempo::CommandList::clone: the list was not created cloneable "
                         "(CommandListOptions::cloneable)");
    if (!closed_)
        throw UsageError(
            "tempo::CommandList::clone: the list is open; only a closed list can be cloned");
    return CommandList(*this, CloneTag{});
}

bool CommandList::executing()
{
    std::erase_if(executions_, [](const detail::Execution& execution) {
        return execution.timeline->last_signaled() >= execution.point;
    });
    return !executions_.empty();
}

void CommandList::require_closed(const char* function) const
{
    if (!closed_)
        throw UsageError(std::string{function} + ": the list is open; close() it first");
}

std::size_t CommandList::size() const noexcept
{
    return recording_->commands.size();
}

std::span<const Command> CommandList::commands() const noexcept
{
    return recording_->commands;
}

const detail::SyncEntry* CommandList::find_sync(CommandId id) const
{
    if (id.value() >= size())
        throw UsageError("tempo::CommandList: unknown " + command_text(id) + ", the list has " +
                         std::to_string(size()) + " commands");
    const auto it = std::lower_bound(
        sync_.begin(), sync_.end(), id.value(),
        [](const detail::SyncEntry& entry, std::uint32_t index) { return entry.command < index; });
    return it != sync_.end() && it->command == id.value() ? &*it : nullptr;
}

std::span<const Event> CommandList::wait_events(CommandId id) const
{
    const detail::SyncEntry* entry = find_sync(id);
    return entry ? std::span<const Event>{entry->wait} : std::span<const Event>{};
}

const Event& CommandList::signal_event(CommandId id) const
{
    const detail::SyncEntry* entry = find_sync(id);
    return entry ? entry->signal : no_event;
}

std::size_t CommandList::segment_count() const
{
    require_closed("tempo::CommandList::segment_count");
    return recording_->segments.size();
}

std::span<const std::uint32_t> CommandList::encoded() const
{
    require_closed("tempo::CommandList::encoded");
    return recording_->memory->dwords;
}

GpuAddress CommandList::gpu_address() const
{
    require_closed("tempo::CommandList::gpu_address");
    return recording_->memory->gpu_address;
}

bool CommandList::shares_recording_with(const CommandList& other) const noexcept
{
    return recording_ == other.recording_;
}

// ---------------------------------------------------------------------------
// Visit

void CommandList::check_visit(const VisitOptions& options) const
{
    require_closed("tempo::CommandList::visit");
    if (options.default_op == VisitDefault::Reappend && !options.target)
        throw UsageError("tempo::CommandList::visit: VisitDefault::Reappend needs a "
                         "VisitOptions::target");
    if (options.target == this)
        throw UsageError("tempo::CommandList::visit: the target is the visited list");
}

void CommandList::for_each_command(detail::FunctionRef<void(const VisitedCommand&)> fn) const
{
    // A local reference: the recording outlives the loop whatever the callbacks do.
    const std::shared_ptr<detail::Recording> recording = recording_;
    const auto count = static_cast<std::uint32_t>(recording->commands.size());
    std::size_t entry = 0;
    for (std::uint32_t i = 0; i < count; i++) {
        const detail::SyncEntry* sync =
            entry < sync_.size() && sync_[entry].command == i ? &sync_[entry++] : nullptr;
        const VisitedCommand visited{
            .id = CommandId{i},
            .command = recording->commands[i],
            .wait = sync ? std::span<const Event>{sync->wait} : std::span<const Event>{},
            .signal = sync ? sync->signal : no_event,
        };
        fn(visited);
    }
}

void CommandList::visit_default(const VisitOptions& options, const VisitedCommand& visited)
{
    VisitSync sync{{visited.wait.begin(), visited.wait.end()}, visited.signal};
    if (options.before)
        options.before(visited, sync);
    if (options.default_op == VisitDefault::Reappend)
        options.target->append(visited.command, {.wait = sync.wait, .signal = sync.signal});
    if (options.after)
        options.after(visited, sync);
}

// ---------------------------------------------------------------------------
// Updates

void CommandList::validate_update(const CommandUpdate& update, std::size_t index) const
{
    const auto fail = [&](const std::string& rule) {
        throw UsageError("tempo::CommandList::update: update " + std::to_string(index) + ": " +
                         rule);
    };
    if (update.id.value() >= size())
        fail("unknown " + command_text(update.id) + ", the list has " + std::to_string(size()) +
             " commands");
    const Command& command = recording_->commands[update.id.value()];
    if (update.groups || update.args) {
        const auto* dispatch = std::get_if<cmd::Dispatch>(&command);
        if (!dispatch)
            fail(command_text(update.id) + " is a " + std::string{command_name(command)} +
                 ", not a dispatch: only dispatches take groups and arguments");
        if (update.args && update.args->size() != dispatch->args.size())
            fail("the dispatch takes " + std::to_string(dispatch->args.size()) +
                 " argument dwords, the update gives " + std::to_string(update.args->size()));
    }
    const detail::SyncEntry* entry = find_sync(update.id);
    if (update.wait) {
        if (!entry || entry->wait.empty())
            fail(command_text(update.id) +
                 " was recorded without wait events, and segments are fixed when the list "
                 "is closed: it can only trade wait events for others");
        if (update.wait->empty())
            fail(command_text(update.id) +
                 " was recorded with wait events, and segments are fixed when the list is "
                 "closed: it cannot lose them all");
        detail::validate(cmd::Barrier{}, {.wait = *update.wait}, limits_,
                         "tempo::CommandList::update");
    }
    if (update.signal) {
        if (!entry || !entry->signal)
            fail(command_text(update.id) +
                 " was recorded without a signal event, and segments are fixed when the list "
                 "is closed: it can only trade its signal event for another");
        if (!*update.signal)
            fail(command_text(update.id) +
                 " was recorded with a signal event, and segments are fixed when the list is "
                 "closed: it cannot lose it");
    }
}

void CommandList::copy_on_write()
{
    // The recording is shared with a clone, or its memory with an execution
    // the queue has not reclaimed yet: patch a copy instead.
    if (recording_.use_count() == 1 && recording_->memory.use_count() == 1)
        return;
    auto copy = std::make_shared<detail::Recording>(*recording_);
    copy->memory = submitter_->upload(recording_->memory->dwords);
    recording_ = std::move(copy);
}

void CommandList::update(std::span<const CommandUpdate> updates)
{
    constexpr const char* function = "tempo::CommandList::update";
    require_closed(function);
    if (executing())
        throw Error(EBUSY, function,
                    "the list is still executing; wait for its executions before updating it");
    for (std::size_t i = 0; i < updates.size(); i++)
        validate_update(updates[i], i);

    if (std::any_of(updates.begin(), updates.end(),
                    [](const CommandUpdate& u) { return u.groups || u.args; }))
        copy_on_write();

    detail::Recording& recording = *recording_;
    const std::span<std::uint32_t> dwords = recording.memory->dwords;
    for (const CommandUpdate& update : updates) {
        const std::uint32_t index = update.id.value();
        const std::uint32_t offset = recording.offsets[index];
        if (update.groups || update.args) {
            auto& dispatch = std::get<cmd::Dispatch>(recording.commands[index]);
            if (update.groups) {
                dispatch.groups = *update.groups;
                std::uint32_t* out = &dwords[offset + detail::dispatch_groups_offset];
                out[0] = update.groups->x;
                out[1] = update.groups->y;
                out[2] = update.groups->z;
            }
            if (update.args) {
                dispatch.args.assign(update.args->begin(), update.args->end());
                std::copy(update.args->begin(), update.args->end(),
                          &dwords[offset + detail::dispatch_args_offset]);
            }
        }
        if (update.wait || update.signal) {
            auto* entry = const_cast<detail::SyncEntry*>(find_sync(update.id));
            if (update.wait)
                entry->wait.assign(update.wait->begin(), update.wait->end());
            if (update.signal)
                entry->signal = *update.signal;
        }
    }
}

} // namespace tempo
