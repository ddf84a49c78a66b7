// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * Exact encoding of every packet of the ISA.
 */
#include <cstdint>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include <drm/tempo_drm.h>

#include <tempo/packet.hpp>

namespace {

using tempo::GpuAddress;
using tempo::PacketWriter;
using Dwords = std::vector<std::uint32_t>;

Dwords dwords(const PacketWriter& writer)
{
    return {writer.dwords().begin(), writer.dwords().end()};
}

TEST(Packet, HeaderMatchesUapi)
{
    for (std::uint32_t op = DRM_TEMPO_PKT_NOP; op <= DRM_TEMPO_PKT_WRITE_JOB_TIMES; op++)
        for (std::uint32_t len : {1U, 5U, 0x1234U, 0xffffU})
            EXPECT_EQ(tempo::packet_header(static_cast<tempo::Opcode>(op), len),
                      DRM_TEMPO_PKT_HEADER(op, len));
    EXPECT_EQ(tempo::packet_header(tempo::Opcode::WaitMem, 8), 0x00080006U);
}

TEST(Packet, Nop)
{
    PacketWriter w;
    w.nop();
    EXPECT_EQ(dwords(w), (Dwords{0x00010000}));
    w.clear();
    w.nop(3);
    EXPECT_EQ(dwords(w), (Dwords{0x00030000, 0, 0}));
    w.clear();
    w.nop(0); // a NOP is at least its header
    EXPECT_EQ(dwords(w), (Dwords{0x00010000}));
}

TEST(Packet, WriteData)
{
    PacketWriter w;
    const std::uint32_t data[] = {0xdeadbeef, 0x11};
    w.write_data(GpuAddress{0x1'2345'6780}, data);
    EXPECT_EQ(dwords(w), (Dwords{0x00050001, 0x23456780, 0x00000001, 0xdeadbeef, 0x11}));
    w.clear();
    w.write_data(GpuAddress{0x1000}, 7U);
    EXPECT_EQ(dwords(w), (Dwords{0x00040001, 0x1000, 0, 7}));
}

TEST(Packet, WriteDataNeedsData)
{
    PacketWriter w;
    EXPECT_THROW(w.write_data(GpuAddress{0x1000}, std::span<const std::uint32_t>{}),
                 std::invalid_argument);
    EXPECT_TRUE(w.empty());
}

TEST(Packet, WriteTimestamp)
{
    PacketWriter w;
    w.write_timestamp(GpuAddress{0x10'0000'0008});
    EXPECT_EQ(dwords(w), (Dwords{0x00030002, 0x00000008, 0x10}));
}

TEST(Packet, WriteJobTimes)
{
    PacketWriter w;
    w.write_job_times(GpuAddress{0x10'0000'0020});
    EXPECT_EQ(dwords(w), (Dwords{0x0003000b, 0x00000020, 0x10}));
}

TEST(Packet, Copy)
{
    PacketWriter w;
    w.copy(GpuAddress{0x2000}, GpuAddress{0xffffffff'00001000}, 4096);
    EXPECT_EQ(dwords(w), (Dwords{0x00060003, 0x2000, 0, 0x1000, 0xffffffff, 4096}));
}

TEST(Packet, Fill)
{
    PacketWriter w;
    w.fill(GpuAddress{0x3000}, 0xcafef00d, 256);
    EXPECT_EQ(dwords(w), (Dwords{0x00050004, 0x3000, 0, 0xcafef00d, 256}));
}

TEST(Packet, Atomic)
{
    PacketWriter w;
    w.atomic_add(GpuAddress{0x4008}, 0x1'0000'0002);
    w.atomic_inc(GpuAddress{0x4010});
    w.atomic(GpuAddress{0x4018}, tempo::AtomicOp::Add, 5);
    EXPECT_EQ(dwords(w), (Dwords{
                             0x00060005, 0x4008, 0, DRM_TEMPO_ATOMIC_ADD, 2, 1, //
                             0x00060005, 0x4010, 0, DRM_TEMPO_ATOMIC_INC, 0, 0, //
                             0x00060005, 0x4018, 0, DRM_TEMPO_ATOMIC_ADD, 5, 0, //
                         }));
}

TEST(Packet, WaitMem)
{
    PacketWriter w;
    w.wait_mem(GpuAddress{0x5000}, tempo::Compare::Ge, 0x7'0000'0003);
    w.wait_mem(GpuAddress{0x5008}, tempo::Compare::Ne, 1, 0xff);
    EXPECT_EQ(dwords(w),
              (Dwords{
                  0x00080006, 0x5000, 0, DRM_TEMPO_COMPARE_GE, 3, 7, 0xffffffff, 0xffffffff, //
                  0x00080006, 0x5008, 0, DRM_TEMPO_COMPARE_NE, 1, 0, 0xff, 0,                //
              }));
}

TEST(Packet, DispatchRaw)
{
    PacketWriter w;
    const std::uint32_t args[] = {10, 20};
    w.dispatch(tempo::Kernel::Spin, {.x = 3, .y = 2, .z = 1}, args);
    EXPECT_EQ(dwords(w), (Dwords{0x00070007, DRM_TEMPO_KERNEL_SPIN, 3, 2, 1, 10, 20}));
    w.clear();
    w.dispatch(tempo::Kernel::Fill, {}, {});
    EXPECT_EQ(dwords(w), (Dwords{0x00050007, DRM_TEMPO_KERNEL_FILL, 1, 1, 1}));
}

TEST(Packet, DispatchKernels)
{
    const GpuAddress a{0x2'0000'1000};
    const GpuAddress b{0x3'0000'2000};
    PacketWriter w;
    w.dispatch_fill({.x = 4}, a, 0x5a5a5a5a, 1024);
    EXPECT_EQ(dwords(w),
              (Dwords{0x00090007, DRM_TEMPO_KERNEL_FILL, 4, 1, 1, 0x1000, 2, 0x5a5a5a5a, 1024}));
    w.clear();
    w.dispatch_copy({.x = 2, .y = 2}, a, b, 512);
    EXPECT_EQ(dwords(w),
              (Dwords{0x000a0007, DRM_TEMPO_KERNEL_COPY, 2, 2, 1, 0x1000, 2, 0x2000, 3, 512}));
    w.clear();
    w.dispatch_atomic_inc({.x = 8}, a, 100);
    EXPECT_EQ(dwords(w),
              (Dwords{0x00080007, DRM_TEMPO_KERNEL_ATOMIC_INC, 8, 1, 1, 0x1000, 2, 100}));
    w.clear();
    w.dispatch_checksum({.x = 1, .y = 1, .z = 6}, b, a, 4096);
    EXPECT_EQ(dwords(w),
              (Dwords{0x000a0007, DRM_TEMPO_KERNEL_CHECKSUM, 1, 1, 6, 0x2000, 3, 0x1000, 2, 4096}));
    w.clear();
    w.dispatch_spin({.x = 2}, 50000);
    EXPECT_EQ(dwords(w), (Dwords{0x00060007, DRM_TEMPO_KERNEL_SPIN, 2, 1, 1, 50000}));
}

TEST(Packet, BatchStartAndEnd)
{
    PacketWriter w;
    w.batch_start(GpuAddress{0x1'0000'6000});
    w.batch_start(GpuAddress{0x7000}, tempo::BatchStartMode::Chain);
    w.end();
    EXPECT_EQ(dwords(w), (Dwords{
                             0x00040008, 0x6000, 1, 0,                     //
                             0x00040008, 0x7000, 0, DRM_TEMPO_BATCH_CHAIN, //
                             0x00010009,                                   //
                         }));
}

TEST(Packet, ChainsAndSizes)
{
    PacketWriter w;
    w.nop().fill(GpuAddress{0x1000}, 1, 4).end();
    EXPECT_EQ(w.size_dwords(), 7U);
    EXPECT_EQ(w.size_bytes(), 28U);
    EXPECT_EQ(dwords(w), (Dwords{0x00010000, 0x00050004, 0x1000, 0, 1, 4, 0x00010009}));
    const auto taken = w.take();
    EXPECT_EQ(taken.size(), 7U);
    EXPECT_TRUE(w.empty());
}

TEST(Packet, Raw)
{
    PacketWriter w;
    const std::uint32_t bad[] = {0x000100ff}; // opcode 255: illegal, on purpose
    w.raw(bad).end();
    EXPECT_EQ(dwords(w), (Dwords{0x000100ff, 0x00010009}));
    // A span of the writer's own dwords stays valid while the writer grows.
    w.raw(w.dwords());
    EXPECT_EQ(dwords(w), (Dwords{0x000100ff, 0x00010009, 0x000100ff, 0x00010009}));
    w.write_data(GpuAddress{0x40}, w.dwords().subspan(0, 2));
    EXPECT_EQ(w.size_dwords(), 9U);
    EXPECT_EQ(w.dwords()[7], 0x000100ffU);
    EXPECT_EQ(w.dwords()[8], 0x00010009U);
}

TEST(Packet, LengthLimit)
{
    PacketWriter w;
    EXPECT_THROW(w.nop(0x10000), std::length_error);
    const std::vector<std::uint32_t> too_long(0xffff - 2);
    EXPECT_THROW(w.write_data(GpuAddress{0x1000}, too_long), std::length_error);
    EXPECT_TRUE(w.empty());
    const std::vector<std::uint32_t> longest(0xffff - 3);
    w.write_data(GpuAddress{0x1000}, longest);
    EXPECT_EQ(w.size_dwords(), 0xffffU);
    EXPECT_EQ(w.dwords()[0], 0xffff0001U);
}

TEST(Packet, Groups)
{
    EXPECT_EQ((tempo::Groups{}.total()), 1U);
    EXPECT_EQ((tempo::Groups{.x = 65536, .y = 65536, .z = 2}.total()), 0x2'0000'0000U);
}

} // namespace
