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

namespace tempo {

namespace {

// Fixed lengths in dwords, header included (see "Packets" in the uAPI).
constexpr std::size_t write_timestamp_length = 3;
constexpr std::size_t write_job_times_length = 3;
constexpr std::size_t copy_length = 6;
constexpr std::size_t fill_length = 5;
constexpr std::size_t atomic_length = 6;
constexpr std::size_t wait_mem_length = 8;
constexpr std::size_t dispatch_header_length = 5;
constexpr std::size_t batch_start_length = 4;
constexpr std::size_t end_length = 1;
constexpr std::uint32_t batch_chain_flag = 1U << 0;

} // namespace

std::uint32_t* PacketWriter::begin_packet(Opcode opcode, std::size_t length)
{
    if (length > max_packet_length)
        throw std::length_error("tempo::PacketWriter: a packet of " + std::to_string(length) +
                                " dwords does not fit the 16-bit length of its header");
    const std::size_t at = dwords_.size();
    dwords_.resize(at + length);
    dwords_[at] = packet_header(opcode, static_cast<std::uint32_t>(length));
    return dwords_.data() + at + 1;
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

std::uint32_t* PacketWriter::put_address(std::uint32_t* out, GpuAddress address) noexcept
{
    *out++ = address.low();
    *out++ = address.high();
    return out;
}

std::uint32_t* PacketWriter::put_u64(std::uint32_t* out, std::uint64_t value) noexcept
{
    return put_address(out, GpuAddress{value});
}

PacketWriter& PacketWriter::nop(std::uint32_t length)
{
    // The payload of a NOP is ignored: zeroes.
    begin_packet(Opcode::Nop, std::max<std::uint32_t>(length, 1));
    return *this;
}

PacketWriter& PacketWriter::write_data(GpuAddress dst, std::span<const std::uint32_t> data)
{
    if (data.empty())
        throw std::invalid_argument("tempo::PacketWriter::write_data: no data");
    const std::ptrdiff_t self = self_offset(data);
    std::uint32_t* out = begin_packet(Opcode::WriteData, data.size() + 3);
    out = put_address(out, dst);
    const std::uint32_t* in = self < 0 ? data.data() : dwords_.data() + self;
    std::copy(in, in + data.size(), out);
    return *this;
}

PacketWriter& PacketWriter::write_timestamp(GpuAddress dst)
{
    put_address(begin_packet(Opcode::WriteTimestamp, write_timestamp_length), dst);
    return *this;
}

PacketWriter& PacketWriter::write_job_times(GpuAddress dst)
{
    put_address(begin_packet(Opcode::WriteJobTimes, write_job_times_length), dst);
    return *this;
}

PacketWriter& PacketWriter::copy(GpuAddress dst, GpuAddress src, std::uint32_t size)
{
    std::uint32_t* out = begin_packet(Opcode::Copy, copy_length);
    out = put_address(out, dst);
    out = put_address(out, src);
    *out = size;
    return *this;
}

PacketWriter& PacketWriter::fill(GpuAddress dst, std::uint32_t value, std::uint32_t size)
{
    std::uint32_t* out = begin_packet(Opcode::Fill, fill_length);
    out = put_address(out, dst);
    *out++ = value;
    *out = size;
    return *this;
}

PacketWriter& PacketWriter::atomic(GpuAddress dst, AtomicOp op, std::uint64_t value)
{
    std::uint32_t* out = begin_packet(Opcode::Atomic, atomic_length);
    out = put_address(out, dst);
    *out++ = static_cast<std::uint32_t>(op);
    put_u64(out, value);
    return *this;
}

PacketWriter& PacketWriter::wait_mem(GpuAddress address, Compare compare, std::uint64_t reference,
                                     std::uint64_t mask)
{
    std::uint32_t* out = begin_packet(Opcode::WaitMem, wait_mem_length);
    out = put_address(out, address);
    *out++ = static_cast<std::uint32_t>(compare);
    out = put_u64(out, reference);
    put_u64(out, mask);
    return *this;
}

PacketWriter& PacketWriter::dispatch(Kernel kernel, Groups groups,
                                     std::span<const std::uint32_t> args)
{
    const std::ptrdiff_t self = self_offset(args);
    std::uint32_t* out = begin_packet(Opcode::Dispatch, dispatch_header_length + args.size());
    *out++ = static_cast<std::uint32_t>(kernel);
    *out++ = groups.x;
    *out++ = groups.y;
    *out++ = groups.z;
    const std::uint32_t* in = self < 0 ? args.data() : dwords_.data() + self;
    std::copy(in, in + args.size(), out);
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
    std::uint32_t* out = begin_packet(Opcode::BatchStart, batch_start_length);
    out = put_address(out, batch);
    *out = mode == BatchStartMode::Chain ? batch_chain_flag : 0U;
    return *this;
}

PacketWriter& PacketWriter::end()
{
    begin_packet(Opcode::End, end_length);
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
