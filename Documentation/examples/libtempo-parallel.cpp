// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * libtempo-parallel: a context with a load-balanced and a parallel slot,
 * and a gang of two command lists submitted as one exec.
 */
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <vector>

#include <tempo/tempo.hpp>

int main()
{
    try {
        const tempo::Device device = tempo::Device::open();
        std::vector<tempo::Engine> computes;
        for (const tempo::EngineInfo& info : device.engines())
            if (info.engine.engine_class == tempo::EngineClass::Compute)
                computes.push_back(info.engine);

        // Slot 0: any compute engine, the least busy. Slot 1: two batches
        // per exec, each on its own compute engine, started together.
        tempo::EngineMap map;
        const tempo::Slot any = map.add_load_balanced(computes);
        const tempo::Slot pair = map.add_parallel(2, computes);
        const auto submitter = tempo::DeviceSubmitter::create(device, map);
        tempo::Buffer counters(device, 2 * sizeof(std::uint64_t));

        // One list per member of the gang, each adding 512 to counter 0.
        std::vector<tempo::CommandList> lists;
        for (int member = 0; member < 2; member++) {
            tempo::CommandList& list = lists.emplace_back(submitter);
            for (int i = 0; i < 512; i++)
                list.append_atomic_inc(counters.gpu_address(0));
            list.close();
        }
        tempo::ParallelQueue gangs(submitter, pair);
        gangs.execute({&lists[0], &lists[1]});

        // The load-balanced slot takes a Queue like any single-batch slot.
        tempo::Queue queue(submitter, any);
        queue.append_atomic_add(counters.gpu_address(8), 7);

        gangs.finish();
        queue.finish();
        std::printf("gang: %" PRIu64 ", load-balanced: %" PRIu64 "\n",
                    counters.read<std::uint64_t>(0), counters.read<std::uint64_t>(8));
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "libtempo-parallel: %s\n", e.what());
        return 1;
    }
}
