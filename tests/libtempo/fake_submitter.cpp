// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 */
#include "fake_submitter.hpp"

#include <algorithm>
#include <cerrno>
#include <stdexcept>
#include <string>
#include <utility>

#include <tempo/error.hpp>

namespace tempo::testing {

namespace {

std::string describe(SyncPoint point)
{
    return "syncobj " + std::to_string(point.handle.value()) + " point " +
           std::to_string(point.point);
}

std::uint64_t address(std::span<const std::uint32_t> dwords, std::size_t at)
{
    return std::uint64_t{dwords[at]} | std::uint64_t{dwords[at + 1]} << 32;
}

bool compare(Compare op, std::uint64_t value, std::uint64_t reference)
{
    switch (op) {
    case Compare::Eq:
        return value == reference;
    case Compare::Ne:
        return value != reference;
    case Compare::Lt:
        return value < reference;
    case Compare::Le:
        return value <= reference;
    case Compare::Gt:
        return value > reference;
    case Compare::Ge:
        return value >= reference;
    }
    return false;
}

} // namespace

FakeSubmitter::FakeSubmitter(SubmitLimits limits) : limits_(limits) {}

FakeSubmitter::~FakeSubmitter() = default;

std::shared_ptr<BatchMemory> FakeSubmitter::upload(std::span<const std::uint32_t> dwords)
{
    struct Holder {
        Holder(FakeSubmitter& owner, std::uint64_t region) : fake(owner), base(region) {}
        Holder(const Holder&) = delete;
        Holder& operator=(const Holder&) = delete;
        ~Holder() { fake.release(base); }

        BatchMemory memory;
        FakeSubmitter& fake;
        std::uint64_t base;
    };
    const std::uint64_t base = next_va_;
    next_va_ += (dwords.size_bytes() + 4096) / 4096 * 4096;
    Region& region = regions_[base];
    region.dwords.assign(dwords.begin(), dwords.end());
    auto holder = std::make_shared<Holder>(*this, base);
    holder->memory = {GpuAddress{base}, region.dwords};
    live_uploads_++;
    uploads_++;
    return {holder, &holder->memory};
}

void FakeSubmitter::release(std::uint64_t base) noexcept
{
    regions_[base].alive = false;
    live_uploads_--;
}

SyncobjHandle FakeSubmitter::create_timeline()
{
    const std::uint32_t handle = next_handle_++;
    timelines_[handle] = Timeline{};
    live_timelines_++;
    return SyncobjHandle{handle};
}

void FakeSubmitter::destroy_timeline(SyncobjHandle timeline) noexcept
{
    const auto it = timelines_.find(timeline.value());
    if (it == timelines_.end() || !it->second.alive) {
        problems_.push_back("destroying unknown syncobj " + std::to_string(timeline.value()));
        return;
    }
    it->second.alive = false;
    live_timelines_--;
}

bool FakeSubmitter::has_fence(SyncPoint point) const
{
    const auto it = timelines_.find(point.handle.value());
    if (it == timelines_.end() || !it->second.alive || it->second.points.empty())
        return false;
    return point.point <= it->second.points.rbegin()->first;
}

bool FakeSubmitter::is_signaled(SyncPoint point) const
{
    if (!has_fence(point))
        return false;
    // As a dma_fence_chain: the first point at or after @point, and all before it.
    const auto& points = timelines_.at(point.handle.value()).points;
    const auto last = points.lower_bound(point.point);
    for (auto it = points.begin(); it != std::next(last); ++it)
        if (!it->second.signaled)
            return false;
    return true;
}

std::uint32_t FakeSubmitter::slot_width(Slot slot) const noexcept
{
    const auto it = slot_widths.find(slot.value());
    return it == slot_widths.end() ? 1 : it->second;
}

void FakeSubmitter::submit(const Exec& exec)
{
    if (fail_job && *fail_job == jobs_.size())
        throw Error(EINVAL, "DRM_IOCTL_TEMPO_EXEC", "fake: refused on request");
    const std::vector<GpuAddress> batches =
        exec.batches.empty() ? std::vector<GpuAddress>{exec.batch}
                             : std::vector<GpuAddress>{exec.batches.begin(), exec.batches.end()};
    if (batches.size() != slot_width(exec.slot))
        throw Error(EINVAL, "DRM_IOCTL_TEMPO_EXEC",
                    "fake: " + std::to_string(batches.size()) + " batches on slot " +
                        std::to_string(exec.slot.value()) + " of width " +
                        std::to_string(slot_width(exec.slot)));
    if (batches.front() != exec.batch)
        problems_.push_back("exec whose batch is not its first batch");
    if (exec.wait.size() > limits_.max_syncs || exec.signal.size() > limits_.max_syncs)
        throw Error(EINVAL, "DRM_IOCTL_TEMPO_EXEC", "fake: too many syncs");
    for (const SyncPoint& wait : exec.wait) {
        const auto it = timelines_.find(wait.handle.value());
        if (it == timelines_.end() || !it->second.alive)
            throw Error(ENOENT, "DRM_IOCTL_TEMPO_EXEC", "fake: unknown " + describe(wait));
        if (!has_fence(wait))
            throw Error(ENOENT, "DRM_IOCTL_TEMPO_EXEC",
                        "fake: wait on " + describe(wait) + ", which has no fence yet");
    }
    for (const SyncPoint& signal : exec.signal) {
        const auto it = timelines_.find(signal.handle.value());
        if (it == timelines_.end() || !it->second.alive)
            throw Error(ENOENT, "DRM_IOCTL_TEMPO_EXEC", "fake: unknown " + describe(signal));
    }
    for (const GpuAddress batch : batches) {
        std::uint64_t base = 0;
        const Region* region = find_region(batch.value(), &base);
        if (!region || !region->alive)
            problems_.push_back("exec of a batch at " + std::to_string(batch.value()) +
                                " outside live batch memory");
    }

    Job job{.id = jobs_.size(),
            .slot = exec.slot,
            .batch = exec.batch,
            .batches = batches,
            .wait = {exec.wait.begin(), exec.wait.end()},
            .signal = {exec.signal.begin(), exec.signal.end()}};
    for (const SyncPoint& signal : exec.signal) {
        auto& points = timelines_[signal.handle.value()].points;
        if (!points.empty() && points.rbegin()->first >= signal.point)
            problems_.push_back(describe(signal) + " signalled out of order (last " +
                                std::to_string(points.rbegin()->first) + ")");
        points[signal.point] = Fence{.signaled = false, .job = job.id};
    }
    slots_[exec.slot.value()].push_back(job.id);
    jobs_.push_back(std::move(job));
    if (auto_run)
        run();
}

std::size_t FakeSubmitter::run()
{
    std::size_t completed = 0;
    for (bool progress = true; progress;) {
        progress = false;
        for (auto& [slot, queue] : slots_) {
            while (!queue.empty()) {
                Job& job = jobs_[queue.front()];
                const bool ready = std::all_of(job.wait.begin(), job.wait.end(),
                                               [&](SyncPoint w) { return is_signaled(w); });
                if (!ready || !execute(job))
                    break;
                complete(job);
                queue.pop_front();
                completed++;
                progress = true;
            }
        }
    }
    return completed;
}

void FakeSubmitter::complete(Job& job)
{
    job.done = true;
    for (const SyncPoint& signal : job.signal)
        timelines_[signal.handle.value()].points[signal.point].signaled = true;
}

const FakeSubmitter::Region* FakeSubmitter::find_region(std::uint64_t address,
                                                        std::uint64_t* base) const
{
    auto it = regions_.upper_bound(address);
    if (it == regions_.begin())
        return nullptr;
    --it;
    if (address >= it->first + it->second.dwords.size() * 4)
        return nullptr;
    *base = it->first;
    return &it->second;
}

std::span<const std::uint32_t> FakeSubmitter::batch_dwords(GpuAddress address) const
{
    std::uint64_t base = 0;
    const Region* region = find_region(address.value(), &base);
    if (!region)
        return {};
    return std::span<const std::uint32_t>{region->dwords}.subspan((address.value() - base) / 4);
}

bool FakeSubmitter::execute(Job& job)
{
    while (job.member < job.batches.size()) {
        if (!execute_member(job))
            return false;
        job.member++;
        job.pc = 0;
    }
    return true;
}

bool FakeSubmitter::execute_member(Job& job)
{
    const GpuAddress batch = job.batches[job.member];
    std::uint64_t base = 0;
    const Region* region = find_region(batch.value(), &base);
    if (!region) {
        problems_.push_back("job " + std::to_string(job.id) + " runs unmapped memory");
        return true;
    }
    if (!region->alive)
        problems_.push_back("job " + std::to_string(job.id) + " runs released batch memory");
    const std::span<const std::uint32_t> dwords{region->dwords};
    std::size_t pc = job.pc ? job.pc : (batch.value() - base) / 4;
    while (pc < dwords.size()) {
        const std::uint32_t header = dwords[pc];
        const auto op = static_cast<Opcode>(header & 0xff);
        const std::size_t length = header >> 16;
        if (length == 0 || pc + length > dwords.size()) {
            problems_.push_back("job " + std::to_string(job.id) + ": malformed packet");
            return true;
        }
        const std::span<const std::uint32_t> packet = dwords.subspan(pc, length);
        switch (op) {
        case Opcode::Nop:
            break;
        case Opcode::WriteData:
            for (std::size_t i = 3; i < length; i++) {
                const std::uint64_t va = address(packet, 1) + (i - 3) * 4;
                memory_[va] = packet[i];
                writes_.emplace_back(va, packet[i]);
            }
            break;
        case Opcode::WriteTimestamp:
            write64(GpuAddress{address(packet, 1)}, timestamp_++);
            break;
        case Opcode::WriteJobTimes: // queued and started now, no other work to wait for
            for (std::uint64_t i = 0; i < 4; i++)
                write64(GpuAddress{address(packet, 1) + 8 * i}, i < 2 ? timestamp_ : 0);
            timestamp_++;
            break;
        case Opcode::Copy:
            for (std::uint32_t i = 0; i < packet[5]; i += 4)
                write32(GpuAddress{address(packet, 1) + i},
                        read32(GpuAddress{address(packet, 3) + i}));
            break;
        case Opcode::Fill:
            for (std::uint32_t i = 0; i < packet[4]; i += 4)
                write32(GpuAddress{address(packet, 1) + i}, packet[3]);
            break;
        case Opcode::Atomic: {
            const GpuAddress va{address(packet, 1)};
            const bool inc = static_cast<AtomicOp>(packet[3]) == AtomicOp::Inc;
            write64(va, read64(va) + (inc ? 1 : address(packet, 4)));
            break;
        }
        case Opcode::WaitMem: {
            const std::uint64_t value = read64(GpuAddress{address(packet, 1)});
            if (!compare(static_cast<Compare>(packet[3]), value & address(packet, 6),
                         address(packet, 4))) {
                job.pc = pc;
                return false;
            }
            break;
        }
        case Opcode::Dispatch:
            execute_dispatch(job, static_cast<Kernel>(packet[1]), {packet[2], packet[3], packet[4]},
                             packet.subspan(5));
            break;
        case Opcode::End:
            return true;
        case Opcode::BatchStart:
            problems_.push_back("job " + std::to_string(job.id) + ": BATCH_START unsupported");
            return true;
        }
        pc += length;
    }
    problems_.push_back("job " + std::to_string(job.id) + ": batch without END");
    return true;
}

void FakeSubmitter::execute_dispatch(const Job& job, Kernel kernel, Groups groups,
                                     std::span<const std::uint32_t> args)
{
    dispatches_.push_back({job.id, kernel, groups, {args.begin(), args.end()}});
    const std::uint64_t n = groups.total();
    switch (kernel) {
    case Kernel::Fill:
        for (std::uint64_t i = 0; i < n * args[3]; i += 4)
            write32(GpuAddress{address(args, 0) + i}, args[2]);
        break;
    case Kernel::Copy:
        for (std::uint64_t i = 0; i < n * args[4]; i += 4)
            write32(GpuAddress{address(args, 0) + i}, read32(GpuAddress{address(args, 2) + i}));
        break;
    case Kernel::AtomicInc: {
        const GpuAddress va{address(args, 0)};
        write64(va, read64(va) + n * args[2]);
        break;
    }
    case Kernel::Checksum: {
        std::uint64_t sum = 0;
        for (std::uint64_t i = 0; i < n * args[4]; i += 4)
            sum += read32(GpuAddress{address(args, 0) + i});
        const GpuAddress dst{address(args, 2)};
        write64(dst, read64(dst) + sum);
        break;
    }
    case Kernel::Spin:
        break;
    }
}

WaitResult FakeSubmitter::wait(SyncPoint point, std::chrono::nanoseconds timeout)
{
    if (timeout.count() == 0)
        polls_++;
    else
        host_waits_.push_back(point);
    run();
    if (is_signaled(point))
        return WaitResult::Signaled;
    if (timeout == wait_forever)
        throw std::runtime_error(
            "fake GPU: waiting forever for " + describe(point) +
            (has_fence(point) ? ", whose job cannot run" : ", which nothing submitted signals") +
            ": deadlock");
    return WaitResult::Timeout;
}

std::uint64_t FakeSubmitter::last_signaled(SyncobjHandle timeline)
{
    polls_++;
    if (auto_run)
        run();
    const auto it = timelines_.find(timeline.value());
    if (it == timelines_.end() || !it->second.alive)
        throw Error(ENOENT, "DRM_IOCTL_SYNCOBJ_QUERY",
                    "fake: unknown syncobj " + std::to_string(timeline.value()));
    std::uint64_t last = 0;
    for (const auto& [point, fence] : it->second.points) {
        if (!fence.signaled)
            break;
        last = point;
    }
    return last;
}

void FakeSubmitter::signal(SyncPoint point)
{
    auto& points = timelines_[point.handle.value()].points;
    if (!points.empty() && points.rbegin()->first >= point.point)
        problems_.push_back(describe(point) + " signalled out of order");
    points[point.point] = Fence{.signaled = true, .job = std::nullopt};
    if (auto_run)
        run();
}

std::size_t FakeSubmitter::pending_jobs() const
{
    return static_cast<std::size_t>(
        std::count_if(jobs_.begin(), jobs_.end(), [](const Job& job) { return !job.done; }));
}

std::uint32_t FakeSubmitter::read32(GpuAddress address) const
{
    const auto it = memory_.find(address.value());
    return it == memory_.end() ? 0 : it->second;
}

std::uint64_t FakeSubmitter::read64(GpuAddress address) const
{
    return std::uint64_t{read32(address)} | std::uint64_t{read32(address + 4)} << 32;
}

void FakeSubmitter::write32(GpuAddress address, std::uint32_t value)
{
    memory_[address.value()] = value;
}

void FakeSubmitter::write64(GpuAddress address, std::uint64_t value)
{
    write32(address, static_cast<std::uint32_t>(value));
    write32(address + 4, static_cast<std::uint32_t>(value >> 32));
}

} // namespace tempo::testing
