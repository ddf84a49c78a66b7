// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * libtempo-hello: the GPU writes a value, the CPU reads it back.
 */
#include <cstdint>
#include <cstdio>

#include <tempo/tempo.hpp>

int main()
{
    try {
        const tempo::Device device = tempo::Device::open();
        const tempo::Context context(device); // every engine, normal priority
        tempo::Buffer target(device, sizeof(std::uint32_t));

        // The batch: one WRITE_DATA packet, then END.
        tempo::PacketWriter packets;
        packets.write_data(target.gpu_address(), 0x600dcafeU).end();
        const tempo::Buffer batch = tempo::Buffer::with_contents(device, packets.dwords());

        // Run it on the first compute engine and wait for its fence.
        const tempo::Slot slot =
            context.slot_of({tempo::EngineClass::Compute, 0}).value_or(tempo::Slot{0});
        const auto fence =
            context.submit({.slot = slot, .batch = batch.gpu_address(), .out_fence = true});
        fence->wait();
        if (fence->status() != 1) {
            std::fprintf(stderr, "the job failed: %d\n", fence->status());
            return 1;
        }

        const auto value = target.read<std::uint32_t>(0);
        std::printf("read back 0x%08x\n", value);
        return value == 0x600dcafeU ? 0 : 1;
    } catch (const tempo::Exception& e) {
        // Any libtempo error, for example "drmGetDevices2: no DRM render node is
        // driven by tempo (is the module loaded?): No such device".
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
}
