// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * Encoder of the packets that the command processor executes (see "Packets"
 * in the uAPI documentation).
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <tempo/types.hpp>

namespace tempo {

/// Packet opcodes: those of &enum drm_tempo_packet, which libtempo checks
/// they equal when it is built (this header does not include the uAPI's).
enum class Opcode : std::uint8_t {
    Nop = 0,
    WriteData = 1,
    WriteTimestamp = 2,
    Copy = 3,
    Fill = 4,
    Atomic = 5,
    WaitMem = 6,
    Dispatch = 7,
    BatchStart = 8,
    End = 9,
    WriteJobTimes = 11,
};

/// What WRITE_JOB_TIMES writes (&struct drm_tempo_job_times): when the job
/// reached its queue and started (GPU timestamps), and how long other
/// queues' work kept it from its engine and from the compute units.
struct JobTimes {
    std::uint64_t queued{0};
    std::uint64_t started{0};
    std::uint64_t engine_wait_ns{0};
    std::uint64_t cu_wait_ns{0};
};

/// Operations of the ATOMIC packet (&enum drm_tempo_atomic_op).
enum class AtomicOp : std::uint32_t {
    Add = 0,
    Inc = 1,
};

/// Compare functions of WAIT_MEM, unsigned 64-bit (&enum drm_tempo_compare).
enum class Compare : std::uint32_t {
    Eq = 0,
    Ne = 1,
    Lt = 2,
    Le = 3,
    Gt = 4,
    Ge = 5,
};

/// Built-in kernels of DISPATCH (&enum drm_tempo_kernel).
enum class Kernel : std::uint32_t {
    Fill = 0,
    Copy = 1,
    AtomicInc = 2,
    Checksum = 3,
    Spin = 4,
};

/// What BATCH_START does.
enum class BatchStartMode {
    /// Run the batch, then come back after the BATCH_START packet.
    Call,
    /// Jump to the batch and never come back (DRM_TEMPO_BATCH_CHAIN).
    Chain,
};

/// Workgroup counts of a DISPATCH.
struct Groups {
    std::uint32_t x{1};
    std::uint32_t y{1};
    std::uint32_t z{1};

    [[nodiscard]] constexpr std::uint64_t total() const noexcept
    {
        return std::uint64_t{x} * y * z;
    }

    friend constexpr bool operator==(const Groups&, const Groups&) noexcept = default;
};

/// Longest packet the header can encode.
inline constexpr std::uint32_t max_packet_length = 0xffff;

/// A packet header: opcode in bits 0..7, length in dwords (header included) in bits 16..31.
/// DRM_TEMPO_PKT_HEADER() of the uAPI, which libtempo checks this equals when it is built.
[[nodiscard]] constexpr std::uint32_t packet_header(Opcode opcode, std::uint32_t length) noexcept
{
    return static_cast<std::uint32_t>(opcode) | (length << 16);
}

/**
 * PacketWriter - appends packets to a dword vector
 *
 * Every function appends one packet and returns the writer, so calls chain:
 *
 *   PacketWriter w;
 *   w.fill(dst, 0xcafe, 4096).atomic_inc(counter).end();
 *   Buffer batch = Buffer::with_contents(device, w.dwords());
 *
 * The writer encodes what it is given: it does not check alignment or the
 * device limits (the GPU reports those with -EILSEQ or -EFAULT on the
 * fence). It throws std::length_error for a packet longer than the header
 * can encode and std::invalid_argument for a WRITE_DATA without data.
 */
class PacketWriter {
public:
    PacketWriter() = default;

    /// NOP of @length dwords (header included, at least 1).
    PacketWriter& nop(std::uint32_t length = 1);
    /// WRITE_DATA: @data written at @dst (4-aligned).
    PacketWriter& write_data(GpuAddress dst, std::span<const std::uint32_t> data);
    PacketWriter& write_data(GpuAddress dst, std::uint32_t value)
    {
        return write_data(dst, std::span<const std::uint32_t>{&value, 1});
    }
    /// WRITE_TIMESTAMP: the 64-bit GPU timestamp at @dst (8-aligned).
    PacketWriter& write_timestamp(GpuAddress dst);
    /// WRITE_JOB_TIMES: the job's JobTimes so far at @dst (32-aligned).
    PacketWriter& write_job_times(GpuAddress dst);
    /// COPY: @size bytes from @src to @dst.
    PacketWriter& copy(GpuAddress dst, GpuAddress src, std::uint32_t size);
    /// FILL: @size bytes (4-aligned) at @dst (4-aligned) with @value.
    PacketWriter& fill(GpuAddress dst, std::uint32_t value, std::uint32_t size);
    /// ATOMIC on the 64-bit value at @dst (8-aligned).
    PacketWriter& atomic(GpuAddress dst, AtomicOp op, std::uint64_t value);
    PacketWriter& atomic_add(GpuAddress dst, std::uint64_t value)
    {
        return atomic(dst, AtomicOp::Add, value);
    }
    PacketWriter& atomic_inc(GpuAddress dst) { return atomic(dst, AtomicOp::Inc, 0); }
    /// WAIT_MEM: waits until (*@address & @mask) @compare @reference.
    PacketWriter& wait_mem(GpuAddress address, Compare compare, std::uint64_t reference,
                           std::uint64_t mask = ~std::uint64_t{0});
    /// DISPATCH of @kernel over @groups with raw argument dwords.
    PacketWriter& dispatch(Kernel kernel, Groups groups, std::span<const std::uint32_t> args);
    /// DISPATCH of the FILL kernel: group g fills [dst + g * bytes, + bytes).
    PacketWriter& dispatch_fill(Groups groups, GpuAddress dst, std::uint32_t value,
                                std::uint32_t bytes_per_group);
    /// DISPATCH of the COPY kernel: group g copies its chunk of @src to @dst.
    PacketWriter& dispatch_copy(Groups groups, GpuAddress dst, GpuAddress src,
                                std::uint32_t bytes_per_group);
    /// DISPATCH of the ATOMIC_INC kernel: every group adds @count to the 64-bit @counter.
    PacketWriter& dispatch_atomic_inc(Groups groups, GpuAddress counter, std::uint32_t count);
    /// DISPATCH of the CHECKSUM kernel: adds the sum of the dwords of @src to the 64-bit @dst.
    PacketWriter& dispatch_checksum(Groups groups, GpuAddress src, GpuAddress dst,
                                    std::uint32_t bytes_per_group);
    /// DISPATCH of the SPIN kernel: every group keeps a CU busy for @nanoseconds.
    PacketWriter& dispatch_spin(Groups groups, std::uint32_t nanoseconds);
    /// BATCH_START of the batch at @batch.
    PacketWriter& batch_start(GpuAddress batch, BatchStartMode mode = BatchStartMode::Call);
    /// END of the batch.
    PacketWriter& end();
    /// Appends dwords as they are (to build packets this writer does not know).
    PacketWriter& raw(std::span<const std::uint32_t> dwords);

    [[nodiscard]] std::span<const std::uint32_t> dwords() const noexcept { return dwords_; }
    [[nodiscard]] std::size_t size_dwords() const noexcept { return dwords_.size(); }
    [[nodiscard]] std::size_t size_bytes() const noexcept
    {
        return dwords_.size() * sizeof(std::uint32_t);
    }
    [[nodiscard]] bool empty() const noexcept { return dwords_.empty(); }
    void clear() noexcept { dwords_.clear(); }
    void reserve(std::size_t dwords) { dwords_.reserve(dwords); }
    /// Moves the dwords out, leaving the writer empty.
    [[nodiscard]] std::vector<std::uint32_t> take() noexcept;

private:
    // Appends a packet of @length dwords, its header written (@opcode: &enum
    // drm_tempo_packet), and returns its first dword: the header.
    std::uint32_t* begin_packet(std::uint32_t opcode, std::size_t length);
    // Index of @data in dwords_ when it points there, else -1.
    [[nodiscard]] std::ptrdiff_t self_offset(std::span<const std::uint32_t> data) const noexcept;
    // Write a 64-bit field, low dword first, at @field.
    static void put_address(std::uint32_t* field, GpuAddress address) noexcept;
    static void put_u64(std::uint32_t* field, std::uint64_t value) noexcept;

    std::vector<std::uint32_t> dwords_;
};

} // namespace tempo
