// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * libtempo's PacketWriter and tempo-uapi's C encoders (tempo_pkt_*()) write
 * the same dwords for every packet both can write, with the opcode and
 * length of the uAPI's "Packet layout": a packet whose length, opcode or
 * field order one of them gets wrong fails here.
 */
#include <cstdint>
#include <functional>
#include <span>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

// A C header: C linkage, and the flexible array members, casts and
// conversions of C that C++ warns about.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
#pragma GCC diagnostic ignored "-Wold-style-cast"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"
extern "C" {
#include "tempo_uapi.h"
}
#pragma GCC diagnostic pop

#include <tempo/packet.hpp>

namespace {

using tempo::GpuAddress;
using tempo::PacketWriter;
using Dwords = std::vector<std::uint32_t>;

constexpr std::uint64_t dst_va = 0x12'3456'7880;
constexpr std::uint64_t src_va = 0xffff'ffff'0000'1000;

// The kernels' arguments, as the C programs write them (TEMPO_ARG_VA() is C).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wold-style-cast"
const Dwords fill_args{TEMPO_ARG_VA(dst_va), 0x5a5a5a5a, 1024};
const Dwords copy_args{TEMPO_ARG_VA(dst_va), TEMPO_ARG_VA(src_va), 512};
const Dwords atomic_inc_args{TEMPO_ARG_VA(dst_va), 100};
const Dwords checksum_args{TEMPO_ARG_VA(src_va), TEMPO_ARG_VA(dst_va), 4096};
const Dwords spin_args{50000};
#pragma GCC diagnostic pop

// The dwords a C encoder writes into a batch of its own.
Dwords c_encoding(const std::function<int(tempo_batch*)>& encode)
{
    Dwords memory(1024, 0xa5a5a5a5);
    const tempo_bo bo{
        .handle = 0,
        .size = memory.size() * sizeof(std::uint32_t),
        .va = 0x4000'0000,
        .map = memory.data(),
    };
    tempo_batch batch{};
    EXPECT_EQ(tempo_batch_init(&batch, &bo, 0, static_cast<std::uint32_t>(memory.size())), 0);
    EXPECT_EQ(encode(&batch), 0);
    return {memory.begin(), memory.begin() + batch.len};
}

// One packet, from both encoders: the same dwords, of the uAPI's length,
// under the uAPI's header.
void expect_same_packet(const PacketWriter& writer, const std::function<int(tempo_batch*)>& encode,
                        std::uint32_t opcode, std::uint32_t length)
{
    const Dwords cpp{writer.dwords().begin(), writer.dwords().end()};
    EXPECT_EQ(cpp, c_encoding(encode));
    ASSERT_EQ(cpp.size(), length);
    EXPECT_EQ(cpp[0], DRM_TEMPO_PKT_HEADER(opcode, length));
}

TEST(PacketEncoders, WriteTheSameNop)
{
    for (std::uint32_t length : {1U, 2U, 7U}) {
        PacketWriter w;
        w.nop(length);
        const Dwords zeroes(length - DRM_TEMPO_PKT_NOP_MIN_DW, 0);
        expect_same_packet(
            w,
            [&](tempo_batch* b) {
                return tempo_pkt_nop_data(b, zeroes.data(),
                                          static_cast<std::uint32_t>(zeroes.size()));
            },
            DRM_TEMPO_PKT_NOP, length);
    }
}

TEST(PacketEncoders, WriteTheSameWriteData)
{
    const std::uint32_t data[] = {0xdeadbeef, 0x11, 0x22};
    for (std::uint32_t n : {1U, 3U}) {
        PacketWriter w;
        w.write_data(GpuAddress{dst_va}, std::span<const std::uint32_t>{data, n});
        expect_same_packet(
            w, [&](tempo_batch* b) { return tempo_pkt_write_data(b, dst_va, data, n); },
            DRM_TEMPO_PKT_WRITE_DATA, DRM_TEMPO_PKT_WRITE_DATA_MIN_DW + n - 1);
    }
    PacketWriter w;
    w.write_data(GpuAddress{dst_va}, 7U);
    expect_same_packet(
        w, [](tempo_batch* b) { return tempo_pkt_write32(b, dst_va, 7); }, DRM_TEMPO_PKT_WRITE_DATA,
        DRM_TEMPO_PKT_WRITE_DATA_MIN_DW);
}

TEST(PacketEncoders, WriteTheSameWriteTimestamp)
{
    PacketWriter w;
    w.write_timestamp(GpuAddress{dst_va});
    expect_same_packet(
        w, [](tempo_batch* b) { return tempo_pkt_write_timestamp(b, dst_va); },
        DRM_TEMPO_PKT_WRITE_TIMESTAMP, DRM_TEMPO_PKT_WRITE_TIMESTAMP_DW);
}

TEST(PacketEncoders, WriteTheSameWriteJobTimes)
{
    PacketWriter w;
    w.write_job_times(GpuAddress{dst_va});
    expect_same_packet(
        w, [](tempo_batch* b) { return tempo_pkt_write_job_times(b, dst_va); },
        DRM_TEMPO_PKT_WRITE_JOB_TIMES, DRM_TEMPO_PKT_WRITE_JOB_TIMES_DW);
}

TEST(PacketEncoders, WriteTheSameCopy)
{
    PacketWriter w;
    w.copy(GpuAddress{dst_va}, GpuAddress{src_va}, 4096);
    expect_same_packet(
        w, [](tempo_batch* b) { return tempo_pkt_copy(b, dst_va, src_va, 4096); },
        DRM_TEMPO_PKT_COPY, DRM_TEMPO_PKT_COPY_DW);
}

TEST(PacketEncoders, WriteTheSameFill)
{
    PacketWriter w;
    w.fill(GpuAddress{dst_va}, 0xcafef00d, 256);
    expect_same_packet(
        w, [](tempo_batch* b) { return tempo_pkt_fill(b, dst_va, 0xcafef00d, 256); },
        DRM_TEMPO_PKT_FILL, DRM_TEMPO_PKT_FILL_DW);
}

TEST(PacketEncoders, WriteTheSameAtomicOfEveryOperation)
{
    PacketWriter add;
    add.atomic_add(GpuAddress{dst_va}, 0x1'0000'0002);
    expect_same_packet(
        add,
        [](tempo_batch* b) {
            return tempo_pkt_atomic(b, dst_va, DRM_TEMPO_ATOMIC_ADD, 0x1'0000'0002);
        },
        DRM_TEMPO_PKT_ATOMIC, DRM_TEMPO_PKT_ATOMIC_DW);
    PacketWriter inc;
    inc.atomic_inc(GpuAddress{dst_va});
    expect_same_packet(
        inc, [](tempo_batch* b) { return tempo_pkt_atomic(b, dst_va, DRM_TEMPO_ATOMIC_INC, 0); },
        DRM_TEMPO_PKT_ATOMIC, DRM_TEMPO_PKT_ATOMIC_DW);
}

TEST(PacketEncoders, WriteTheSameWaitMemOfEveryCompare)
{
    const std::pair<tempo::Compare, std::uint32_t> compares[] = {
        {tempo::Compare::Eq, DRM_TEMPO_COMPARE_EQ}, {tempo::Compare::Ne, DRM_TEMPO_COMPARE_NE},
        {tempo::Compare::Lt, DRM_TEMPO_COMPARE_LT}, {tempo::Compare::Le, DRM_TEMPO_COMPARE_LE},
        {tempo::Compare::Gt, DRM_TEMPO_COMPARE_GT}, {tempo::Compare::Ge, DRM_TEMPO_COMPARE_GE},
    };
    for (const auto& [compare, uapi_compare] : compares) {
        const std::uint32_t uapi = uapi_compare; // clang 14 captures no structured binding
        PacketWriter w;
        w.wait_mem(GpuAddress{dst_va}, compare, 0x7'0000'0003, 0xff'0000'00ff);
        expect_same_packet(
            w,
            [uapi](tempo_batch* b) {
                return tempo_pkt_wait_mem(b, dst_va, uapi, 0x7'0000'0003, 0xff'0000'00ff);
            },
            DRM_TEMPO_PKT_WAIT_MEM, DRM_TEMPO_PKT_WAIT_MEM_DW);
    }
}

TEST(PacketEncoders, WriteTheSameDispatchOfRawArguments)
{
    const std::uint32_t args[] = {10, 20, 30};
    for (std::uint32_t n : {0U, 3U}) {
        PacketWriter w;
        w.dispatch(tempo::Kernel::Spin, {.x = 3, .y = 2, .z = 5},
                   std::span<const std::uint32_t>{args, n});
        expect_same_packet(
            w,
            [&](tempo_batch* b) {
                return tempo_pkt_dispatch(b, DRM_TEMPO_KERNEL_SPIN, 3, 2, 5, args, n);
            },
            DRM_TEMPO_PKT_DISPATCH, DRM_TEMPO_PKT_DISPATCH_MIN_DW + n);
    }
}

TEST(PacketEncoders, WriteTheSameDispatchOfEveryKernel)
{
    const tempo::Groups groups{.x = 4, .y = 2, .z = 3};
    const auto c_dispatch = [&](std::uint32_t kernel, const Dwords& args) {
        return [=](tempo_batch* b) {
            return tempo_pkt_dispatch(b, kernel, groups.x, groups.y, groups.z, args.data(),
                                      static_cast<std::uint32_t>(args.size()));
        };
    };
    const auto length = [](const Dwords& args) {
        return DRM_TEMPO_PKT_DISPATCH_MIN_DW + static_cast<std::uint32_t>(args.size());
    };

    PacketWriter w;
    w.dispatch_fill(groups, GpuAddress{dst_va}, 0x5a5a5a5a, 1024);
    expect_same_packet(w, c_dispatch(DRM_TEMPO_KERNEL_FILL, fill_args), DRM_TEMPO_PKT_DISPATCH,
                       length(fill_args));

    w.clear();
    w.dispatch_copy(groups, GpuAddress{dst_va}, GpuAddress{src_va}, 512);
    expect_same_packet(w, c_dispatch(DRM_TEMPO_KERNEL_COPY, copy_args), DRM_TEMPO_PKT_DISPATCH,
                       length(copy_args));

    w.clear();
    w.dispatch_atomic_inc(groups, GpuAddress{dst_va}, 100);
    expect_same_packet(w, c_dispatch(DRM_TEMPO_KERNEL_ATOMIC_INC, atomic_inc_args),
                       DRM_TEMPO_PKT_DISPATCH, length(atomic_inc_args));

    w.clear();
    w.dispatch_checksum(groups, GpuAddress{src_va}, GpuAddress{dst_va}, 4096);
    expect_same_packet(w, c_dispatch(DRM_TEMPO_KERNEL_CHECKSUM, checksum_args),
                       DRM_TEMPO_PKT_DISPATCH, length(checksum_args));

    w.clear();
    w.dispatch_spin(groups, 50000);
    expect_same_packet(w, c_dispatch(DRM_TEMPO_KERNEL_SPIN, spin_args), DRM_TEMPO_PKT_DISPATCH,
                       length(spin_args));
}

TEST(PacketEncoders, WriteTheSameBatchStartThatCallsOrChains)
{
    PacketWriter call;
    call.batch_start(GpuAddress{dst_va});
    expect_same_packet(
        call, [](tempo_batch* b) { return tempo_pkt_batch_start(b, dst_va, 0); },
        DRM_TEMPO_PKT_BATCH_START, DRM_TEMPO_PKT_BATCH_START_DW);
    PacketWriter chain;
    chain.batch_start(GpuAddress{dst_va}, tempo::BatchStartMode::Chain);
    expect_same_packet(
        chain,
        [](tempo_batch* b) { return tempo_pkt_batch_start(b, dst_va, DRM_TEMPO_BATCH_CHAIN); },
        DRM_TEMPO_PKT_BATCH_START, DRM_TEMPO_PKT_BATCH_START_DW);
}

TEST(PacketEncoders, WriteTheSameEnd)
{
    PacketWriter w;
    w.end();
    expect_same_packet(
        w, [](tempo_batch* b) { return tempo_pkt_end(b); }, DRM_TEMPO_PKT_END,
        DRM_TEMPO_PKT_END_DW);
}

TEST(PacketEncoders, WriteTheSameBatchOfPacketsInARow)
{
    PacketWriter w;
    w.fill(GpuAddress{dst_va}, 1, 4);
    w.write_timestamp(GpuAddress{src_va});
    w.atomic_inc(GpuAddress{dst_va});
    w.end();
    const Dwords c = c_encoding([](tempo_batch* b) {
        int err = tempo_pkt_fill(b, dst_va, 1, 4);
        err = err ? err : tempo_pkt_write_timestamp(b, src_va);
        err = err ? err : tempo_pkt_atomic(b, dst_va, DRM_TEMPO_ATOMIC_INC, 0);
        return err ? err : tempo_pkt_end(b);
    });
    EXPECT_EQ((Dwords{w.dwords().begin(), w.dwords().end()}), c);
}

} // namespace
