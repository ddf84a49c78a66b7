// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * A program built against an installed libtempo (tests/install/run.sh):
 * it calls into the library without needing a tempo device, and reports
 * the device when there is one. It includes the uAPI header too, which
 * tempo::tempo (or tempo.pc) alone must make compile.
 */
#include <cstdio>
#include <cstdlib>
#include <string>

#include <drm/tempo_drm.h>

#include <tempo/tempo.hpp>
#include <tempo/version.hpp>

static_assert(sizeof(drm_tempo_query) % 8 == 0, "uAPI structures are 8-byte aligned");

int main()
{
    tempo::PacketWriter packets;
    packets.nop(2).end();

    std::printf("libtempo %s\n", tempo::version_string);
    std::printf("priority high: %s\n", tempo::to_string(tempo::Priority::High).c_str());
    std::printf("batch of %zu dwords\n", packets.dwords().size());

    const auto nodes = tempo::Device::enumerate();
    std::printf("tempo devices: %zu\n", nodes.size());
    for (const std::string& node : nodes)
        std::printf("  %s\n", node.c_str());
    return packets.dwords().size() >= 3 ? EXIT_SUCCESS : EXIT_FAILURE;
}
