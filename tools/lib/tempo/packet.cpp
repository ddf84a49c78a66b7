// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 */
#include <algorithm>
#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>

#include <tempo/packet.hpp>

#include "uapi.hpp"

namespace tempo {

// Every opcode, length and field index below is the uAPI's (its "Packet
// layout"); uapi.hpp checks that the public enums and packet_header() agree
// with it.

std::uint32_t* PacketWriter::begin_packet(std::uint32_t opcode, std::size_t length)
{
    if (length > max_packet_length)
        throw std::length_error("tempo::PacketWriter: a packet of " + std::to_string(length) +
                                " dwords does not fit the 16-bit length of its header");
    const std::size_t at = dwords_.size();
    dwords_.resize(at + length);
    dwords_[at] = DRM_TEMPO_PKT_HEADER(opcode, length);
    return dwords_.data() + at;
}

std::ptrdiff_t PacketWriter::self_offset(std::span<const std::uint32_t> data) const noexcept
{
    // Growing dwords_ may move it: a span into it is then read by index.
    const std::uint32_t* begin = dwords_.data();
    const std::uint32_t* end = begin + dwords_.size();
    if (data.empty() || std::less<>{}(data.data(), begin) || !std::less<>{}(data.data(), end))
        return -1;
    return data.data() - begin;
}

void PacketWriter::put_address(std::uint32_t* field, GpuAddress address) noexcept
{
    field[0] = address.low();
    field[1] = address.high();
}

void PacketWriter::put_u64(std::uint32_t* field, std::uint64_t value) noexcept
{
    put_address(field, GpuAddress{value});
}

PacketWriter& PacketWriter::nop(std::uint32_t length)
{
    // The payload of a NOP is ignored: zeroes.
    begin_packet(DRM_TEMPO_PKT_NOP, std::max<std::uint32_t>(length, DRM_TEMPO_PKT_NOP_MIN_DW));
    return *this;
}

PacketWriter& PacketWriter::write_data(GpuAddress dst, std::span<const std::uint32_t> data)
{
    if (data.empty())
        throw std::invalid_argument("tempo::PacketWriter::write_data: no data");
    const std::ptrdiff_t self = self_offset(data);
    std::uint32_t* p =
        begin_packet(DRM_TEMPO_PKT_WRITE_DATA, DRM_TEMPO_WRITE_DATA_DATA + data.size());
    put_address(p + DRM_TEMPO_WRITE_DATA_VA, dst);
    const std::uint32_t* in = self < 0 ? data.data() : dwords_.data() + self;
    std::copy(in, in + data.size(), p + DRM_TEMPO_WRITE_DATA_DATA);
    return *this;
}

PacketWriter& PacketWriter::write_timestamp(GpuAddress dst)
{
    std::uint32_t* p =
        begin_packet(DRM_TEMPO_PKT_WRITE_TIMESTAMP, DRM_TEMPO_PKT_WRITE_TIMESTAMP_DW);
    put_address(p + DRM_TEMPO_WRITE_TIMESTAMP_VA, dst);
    return *this;
}

PacketWriter& PacketWriter::write_job_times(GpuAddress dst)
{
    std::uint32_t* p =
        begin_packet(DRM_TEMPO_PKT_WRITE_JOB_TIMES, DRM_TEMPO_PKT_WRITE_JOB_TIMES_DW);
    put_address(p + DRM_TEMPO_WRITE_JOB_TIMES_VA, dst);
    return *this;
}

PacketWriter& PacketWriter::copy(GpuAddress dst, GpuAddress src, std::uint32_t size)
{
    std::uint32_t* p = begin_packet(DRM_TEMPO_PKT_COPY, DRM_TEMPO_PKT_COPY_DW);
    put_address(p + DRM_TEMPO_COPY_DST, dst);
    put_address(p + DRM_TEMPO_COPY_SRC, src);
    p[DRM_TEMPO_COPY_SIZE] = size;
    return *this;
}

PacketWriter& PacketWriter::fill(GpuAddress dst, std::uint32_t value, std::uint32_t size)
{
    std::uint32_t* p = begin_packet(DRM_TEMPO_PKT_FILL, DRM_TEMPO_PKT_FILL_DW);
    put_address(p + DRM_TEMPO_FILL_DST, dst);
    p[DRM_TEMPO_FILL_VALUE] = value;
    p[DRM_TEMPO_FILL_SIZE] = size;
    return *this;
}

PacketWriter& PacketWriter::atomic(GpuAddress dst, AtomicOp op, std::uint64_t value)
{
    std::uint32_t* p = begin_packet(DRM_TEMPO_PKT_ATOMIC, DRM_TEMPO_PKT_ATOMIC_DW);
    put_address(p + DRM_TEMPO_ATOMIC_VA, dst);
    p[DRM_TEMPO_ATOMIC_OP] = static_cast<std::uint32_t>(op);
    put_u64(p + DRM_TEMPO_ATOMIC_VALUE, value);
    return *this;
}

PacketWriter& PacketWriter::wait_mem(GpuAddress address, Compare compare, std::uint64_t reference,
                                     std::uint64_t mask)
{
    std::uint32_t* p = begin_packet(DRM_TEMPO_PKT_WAIT_MEM, DRM_TEMPO_PKT_WAIT_MEM_DW);
    put_address(p + DRM_TEMPO_WAIT_MEM_VA, address);
    p[DRM_TEMPO_WAIT_MEM_COMPARE] = static_cast<std::uint32_t>(compare);
    put_u64(p + DRM_TEMPO_WAIT_MEM_REF, reference);
    put_u64(p + DRM_TEMPO_WAIT_MEM_MASK, mask);
    return *this;
}

PacketWriter& PacketWriter::dispatch(Kernel kernel, Groups groups,
                                     std::span<const std::uint32_t> args)
{
    const std::ptrdiff_t self = self_offset(args);
    std::uint32_t* p =
        begin_packet(DRM_TEMPO_PKT_DISPATCH, DRM_TEMPO_PKT_DISPATCH_MIN_DW + args.size());
    p[DRM_TEMPO_DISPATCH_KERNEL] = static_cast<std::uint32_t>(kernel);
    p[DRM_TEMPO_DISPATCH_GROUPS_X] = groups.x;
    p[DRM_TEMPO_DISPATCH_GROUPS_Y] = groups.y;
    p[DRM_TEMPO_DISPATCH_GROUPS_Z] = groups.z;
    const std::uint32_t* in = self < 0 ? args.data() : dwords_.data() + self;
    std::copy(in, in + args.size(), p + DRM_TEMPO_DISPATCH_ARGS);
    return *this;
}

PacketWriter& PacketWriter::dispatch_fill(Groups groups, GpuAddress dst, std::uint32_t value,
                                          std::uint32_t bytes_per_group)
{
    const std::uint32_t args[] = {dst.low(), dst.high(), value, bytes_per_group};
    return dispatch(Kernel::Fill, groups, args);
}

PacketWriter& PacketWriter::dispatch_copy(Groups groups, GpuAddress dst, GpuAddress src,
                                          std::uint32_t bytes_per_group)
{
    const std::uint32_t args[] = {dst.low(), dst.high(), src.low(), src.high(), bytes_per_group};
    return dispatch(Kernel::Copy, groups, args);
}

PacketWriter& PacketWriter::dispatch_atomic_inc(Groups groups, GpuAddress counter,
                                                std::uint32_t count)
{
    const std::uint32_t args[] = {counter.low(), counter.high(), count};
    return dispatch(Kernel::AtomicInc, groups, args);
}

PacketWriter& PacketWriter::dispatch_checksum(Groups groups, GpuAddress src, GpuAddress dst,
                                              std::uint32_t bytes_per_group)
{
    const std::uint32_t args[] = {src.low(), src.high(), dst.low(), dst.high(), bytes_per_group};
    return dispatch(Kernel::Checksum, groups, args);
}

PacketWriter& PacketWriter::dispatch_spin(Groups groups, std::uint32_t nanoseconds)
{
    const std::uint32_t args[] = {nanoseconds};
    return dispatch(Kernel::Spin, groups, args);
}

PacketWriter& PacketWriter::batch_start(GpuAddress batch, BatchStartMode mode)
{
    std::uint32_t* p = begin_packet(DRM_TEMPO_PKT_BATCH_START, DRM_TEMPO_PKT_BATCH_START_DW);
    put_address(p + DRM_TEMPO_BATCH_START_VA, batch);
    p[DRM_TEMPO_BATCH_START_FLAGS] = mode == BatchStartMode::Chain ? DRM_TEMPO_BATCH_CHAIN : 0U;
    return *this;
}

PacketWriter& PacketWriter::end()
{
    begin_packet(DRM_TEMPO_PKT_END, DRM_TEMPO_PKT_END_DW);
    return *this;
}

PacketWriter& PacketWriter::raw(std::span<const std::uint32_t> dwords)
{
    const std::ptrdiff_t self = self_offset(dwords);
    const std::size_t at = dwords_.size();
    dwords_.resize(at + dwords.size());
    const std::uint32_t* in = self < 0 ? dwords.data() : dwords_.data() + self;
    std::copy(in, in + dwords.size(), dwords_.data() + at);
    return *this;
}

std::vector<std::uint32_t> PacketWriter::take() noexcept
{
    return std::exchange(dwords_, {});
}

} // namespace tempo
