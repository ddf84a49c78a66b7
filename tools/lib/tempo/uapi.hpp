// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * The tempo uAPI header, for the sources of libtempo only (the public headers
 * never include it). The header uses C flexible array members, which ISO C++
 * does not have, hence the diagnostic pragmas.
 */
#pragma once

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
#include <drm/tempo_drm.h>
#pragma GCC diagnostic pop

#include <cstddef>
#include <cstdint>

#include <tempo/packet.hpp>
#include <tempo/types.hpp>

namespace tempo::detail {

// The public enums mirror the uAPI values.
static_assert(static_cast<int>(EngineClass::Gfx) == DRM_TEMPO_ENGINE_CLASS_GFX);
static_assert(static_cast<int>(EngineClass::Compute) == DRM_TEMPO_ENGINE_CLASS_COMPUTE);
static_assert(static_cast<int>(EngineClass::Copy) == DRM_TEMPO_ENGINE_CLASS_COPY);

static_assert(to_uapi(Priority::VeryLow) == DRM_TEMPO_PRIORITY_VERY_LOW);
static_assert(to_uapi(Priority::Low) == DRM_TEMPO_PRIORITY_LOW);
static_assert(to_uapi(Priority::Normal) == DRM_TEMPO_PRIORITY_NORMAL);
static_assert(to_uapi(Priority::High) == DRM_TEMPO_PRIORITY_HIGH);
static_assert(to_uapi(Priority::VeryHigh) == DRM_TEMPO_PRIORITY_VERY_HIGH);

static_assert(static_cast<int>(Opcode::Nop) == DRM_TEMPO_PKT_NOP);
static_assert(static_cast<int>(Opcode::WriteData) == DRM_TEMPO_PKT_WRITE_DATA);
static_assert(static_cast<int>(Opcode::WriteTimestamp) == DRM_TEMPO_PKT_WRITE_TIMESTAMP);
static_assert(static_cast<int>(Opcode::Copy) == DRM_TEMPO_PKT_COPY);
static_assert(static_cast<int>(Opcode::Fill) == DRM_TEMPO_PKT_FILL);
static_assert(static_cast<int>(Opcode::Atomic) == DRM_TEMPO_PKT_ATOMIC);
static_assert(static_cast<int>(Opcode::WaitMem) == DRM_TEMPO_PKT_WAIT_MEM);
static_assert(static_cast<int>(Opcode::Dispatch) == DRM_TEMPO_PKT_DISPATCH);
static_assert(static_cast<int>(Opcode::BatchStart) == DRM_TEMPO_PKT_BATCH_START);
static_assert(static_cast<int>(Opcode::End) == DRM_TEMPO_PKT_END);
static_assert(static_cast<int>(Opcode::WriteJobTimes) == DRM_TEMPO_PKT_WRITE_JOB_TIMES);

static_assert(sizeof(JobTimes) == sizeof(drm_tempo_job_times));
static_assert(offsetof(JobTimes, queued) == offsetof(drm_tempo_job_times, queued));
static_assert(offsetof(JobTimes, started) == offsetof(drm_tempo_job_times, started));
static_assert(offsetof(JobTimes, engine_wait_ns) == offsetof(drm_tempo_job_times, engine_wait_ns));
static_assert(offsetof(JobTimes, cu_wait_ns) == offsetof(drm_tempo_job_times, cu_wait_ns));

static_assert(static_cast<int>(AtomicOp::Add) == DRM_TEMPO_ATOMIC_ADD);
static_assert(static_cast<int>(AtomicOp::Inc) == DRM_TEMPO_ATOMIC_INC);

static_assert(static_cast<int>(Compare::Eq) == DRM_TEMPO_COMPARE_EQ);
static_assert(static_cast<int>(Compare::Ne) == DRM_TEMPO_COMPARE_NE);
static_assert(static_cast<int>(Compare::Lt) == DRM_TEMPO_COMPARE_LT);
static_assert(static_cast<int>(Compare::Le) == DRM_TEMPO_COMPARE_LE);
static_assert(static_cast<int>(Compare::Gt) == DRM_TEMPO_COMPARE_GT);
static_assert(static_cast<int>(Compare::Ge) == DRM_TEMPO_COMPARE_GE);

static_assert(static_cast<int>(Kernel::Fill) == DRM_TEMPO_KERNEL_FILL);
static_assert(static_cast<int>(Kernel::Copy) == DRM_TEMPO_KERNEL_COPY);
static_assert(static_cast<int>(Kernel::AtomicInc) == DRM_TEMPO_KERNEL_ATOMIC_INC);
static_assert(static_cast<int>(Kernel::Checksum) == DRM_TEMPO_KERNEL_CHECKSUM);
static_assert(static_cast<int>(Kernel::Spin) == DRM_TEMPO_KERNEL_SPIN);

// The public header cannot use DRM_TEMPO_PKT_HEADER(): packet_header() and
// max_packet_length restate it, and must say the same for every opcode and
// length.
static_assert(max_packet_length == ~std::uint32_t{0} >> DRM_TEMPO_PKT_LEN_SHIFT);

consteval bool packet_header_is_the_uapis()
{
    for (std::uint32_t op = 0; op <= DRM_TEMPO_PKT_OP_MASK; op++)
        for (std::uint32_t len : {1U, 2U, 0x1234U, max_packet_length})
            if (packet_header(static_cast<Opcode>(op), len) != DRM_TEMPO_PKT_HEADER(op, len))
                return false;
    return true;
}
static_assert(packet_header_is_the_uapis());

} // namespace tempo::detail
