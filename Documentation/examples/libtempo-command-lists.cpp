// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * libtempo-command-lists: a command list, a clone with another group count,
 * and small commands batched into one submission.
 */
#include <cinttypes>
#include <cstdint>
#include <cstdio>

#include <tempo/tempo.hpp>

int main()
{
    try {
        const tempo::Device device = tempo::Device::open();
        // Batch memory, timelines and execs on a context of every engine.
        const auto submitter = tempo::DeviceSubmitter::create(device);
        const tempo::Slot slot =
            submitter->context().slot_of({tempo::EngineClass::Compute, 0}).value_or(tempo::Slot{0});
        tempo::Buffer counters(device, 3 * sizeof(std::uint64_t));

        // Record: 3 workgroups each add 6 to counter 0. close() encodes it.
        tempo::CommandList list(submitter, {.cloneable = true});
        const tempo::CommandId add =
            list.append_dispatch_atomic_inc({.x = 3}, counters.gpu_address(0), 6);
        list.close();

        // The clone shares the encoded batch until it changes its dispatch:
        // then it gets a copy, and the original is left as it was.
        tempo::CommandList clone = list.clone();
        const tempo::GpuAddress second = counters.gpu_address(8);
        const std::uint32_t args[] = {second.low(), second.high(), 6};
        clone.update({.id = add, .groups = tempo::Groups{.x = 6}, .args = args});

        tempo::Queue queue(submitter, slot);
        queue.execute(list);
        queue.execute(clone);
        queue.finish();

        // Ten small commands, one exec: the batch is flushed when the host
        // waits for the event its last command signals.
        tempo::BatchedQueue batched(submitter, slot);
        const tempo::Event done(submitter);
        for (int i = 0; i < 10; i++)
            batched.append_atomic_inc(counters.gpu_address(16),
                                      {.signal = i == 9 ? done : tempo::Event{}});
        done.wait();

        const auto values = counters.read_array<std::uint64_t>(0, 3);
        std::printf("original: %" PRIu64 ", clone: %" PRIu64 ", batched: %" PRIu64 "\n", values[0],
                    values[1], values[2]);
        return values[0] == 18 && values[1] == 36 && values[2] == 10 ? 0 : 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
}
