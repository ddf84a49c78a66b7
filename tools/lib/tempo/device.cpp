// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 */
#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include <fcntl.h>
#include <unistd.h>

#include <xf86drm.h>

#include <tempo/device.hpp>
#include <tempo/error.hpp>

#include "device_state.hpp"
#include "ioctl.hpp"
#include "uapi.hpp"

namespace tempo {

namespace {

constexpr std::string_view driver_name = "tempo";
constexpr std::string_view render_prefix = "renderD";

UniqueFd open_node(const std::string& path)
{
    const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0)
        throw Error(errno, "open", path);
    return UniqueFd{fd};
}

// The driver identity; throws when @fd is not a DRM device.
DriverVersion read_version(int fd, const std::string& path)
{
    errno = 0;
    drmVersionPtr version = drmGetVersion(fd);
    if (!version)
        throw Error(errno ? errno : ENODEV, "DRM_IOCTL_VERSION", path + " is not a DRM device");
    DriverVersion result{
        .name = std::string(version->name, static_cast<std::size_t>(version->name_len)),
        .date = std::string(version->date, static_cast<std::size_t>(version->date_len)),
        .description = std::string(version->desc, static_cast<std::size_t>(version->desc_len)),
        .major = version->version_major,
        .minor = version->version_minor,
        .patch = version->version_patchlevel,
    };
    drmFreeVersion(version);
    return result;
}

bool is_tempo_node(const std::string& path)
{
    const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return false;
    const UniqueFd owner{fd};
    drmVersionPtr version = drmGetVersion(fd);
    if (!version)
        return false;
    const bool tempo =
        std::string_view(version->name, static_cast<std::size_t>(version->name_len)) == driver_name;
    drmFreeVersion(version);
    return tempo;
}

// Minor number of a render node path, for ordering ("/dev/dri/renderD129" -> 129).
unsigned render_minor(const std::string& path)
{
    const auto pos = path.rfind(render_prefix);
    if (pos == std::string::npos)
        return ~0U;
    return static_cast<unsigned>(
        std::strtoul(path.c_str() + pos + render_prefix.size(), nullptr, 10));
}

std::string query_name(std::uint32_t id)
{
    switch (id) {
    case DRM_TEMPO_QUERY_DEVICE:
        return "DRM_TEMPO_QUERY_DEVICE";
    case DRM_TEMPO_QUERY_ENGINES:
        return "DRM_TEMPO_QUERY_ENGINES";
    case DRM_TEMPO_QUERY_HQDS:
        return "DRM_TEMPO_QUERY_HQDS";
    default:
        return "query " + std::to_string(id);
    }
}

// One query, size-probe first: returns the answer as bytes.
std::vector<std::byte> query(int fd, std::uint32_t id)
{
    drm_tempo_query q{
        .extensions = 0,
        .query = id,
        .size = 0,
        .data = 0,
        .flags = 0,
        .pad = 0,
    };
    detail::ioctl_or_throw(fd, TEMPO_IOCTL(DRM_IOCTL_TEMPO_QUERY), &q,
                           [&] { return "probing the size of " + query_name(id); });
    std::vector<std::byte> answer(q.size);
    if (answer.empty())
        return answer;
    q.data = reinterpret_cast<std::uintptr_t>(answer.data());
    detail::ioctl_or_throw(fd, TEMPO_IOCTL(DRM_IOCTL_TEMPO_QUERY), &q, [&] {
        return "reading " + query_name(id) + " (" + std::to_string(answer.size()) + " bytes)";
    });
    answer.resize(std::min<std::size_t>(answer.size(), q.size));
    return answer;
}

[[noreturn]] void throw_short_answer(std::uint32_t id, std::size_t size, std::size_t needed)
{
    throw Error(EPROTO, "DRM_IOCTL_TEMPO_QUERY",
                query_name(id) + " answered " + std::to_string(size) + " bytes, " +
                    std::to_string(needed) + " expected");
}

// Copies a uAPI struct out of an answer. Callers check the size first; an
// answer longer than the struct (a newer kernel) has fields this one ignores.
template <typename T>
T read_struct(const std::vector<std::byte>& answer, std::size_t offset = 0)
{
    T value{};
    if (offset < answer.size())
        std::memcpy(&value, answer.data() + offset, std::min(sizeof(T), answer.size() - offset));
    return value;
}

Engine to_engine(std::uint16_t engine_class, std::uint16_t instance)
{
    return Engine{static_cast<EngineClass>(engine_class), instance};
}

void read_queries(detail::DeviceState& state)
{
    const int fd = state.fd.get();

    const auto device = query(fd, DRM_TEMPO_QUERY_DEVICE);
    if (device.size() < sizeof(drm_tempo_query_device))
        throw_short_answer(DRM_TEMPO_QUERY_DEVICE, device.size(), sizeof(drm_tempo_query_device));
    const auto d = read_struct<drm_tempo_query_device>(device);
    state.info = DeviceInfo{
        .num_engines = d.num_engines,
        .num_hqds = d.num_hqds,
        .num_cus = d.num_cus,
        .max_batches = d.max_batches,
        .timestamp_frequency = d.timestamp_frequency,
        .va_start = GpuAddress{d.va_start},
        .va_end = GpuAddress{d.va_end},
        .max_syncs = d.max_syncs,
        .max_batch_depth = d.max_batch_depth,
        .max_slots = d.max_slots,
        .ring_size = d.ring_size,
        .max_priority = priority_from_uapi(d.max_priority).value_or(Priority::Normal),
        .max_packet_dwords = d.max_packet_dwords,
        .max_groups = d.max_groups,
        .job_timeout = std::chrono::milliseconds{d.job_timeout_ms},
        .parallel_classes = d.parallel_classes,
        .max_siblings = d.max_siblings,
    };

    const auto engines = query(fd, DRM_TEMPO_QUERY_ENGINES);
    const auto e = read_struct<drm_tempo_query_engines>(engines);
    const std::size_t engines_size = sizeof(drm_tempo_query_engines) +
                                     std::size_t{e.num_engines} * sizeof(drm_tempo_engine_info);
    if (engines.size() < engines_size)
        throw_short_answer(DRM_TEMPO_QUERY_ENGINES, engines.size(), engines_size);
    state.engines.reserve(e.num_engines);
    for (std::size_t i = 0; i < e.num_engines; i++) {
        const auto info = read_struct<drm_tempo_engine_info>(
            engines, sizeof(drm_tempo_query_engines) + i * sizeof(drm_tempo_engine_info));
        state.engines.push_back(EngineInfo{
            .engine = to_engine(info.engine_class, info.engine_instance),
            .num_hqds = info.num_hqds,
            .first_hqd = info.first_hqd,
        });
    }

    const auto hqds = query(fd, DRM_TEMPO_QUERY_HQDS);
    const auto h = read_struct<drm_tempo_query_hqds>(hqds);
    const std::size_t hqds_size =
        sizeof(drm_tempo_query_hqds) + std::size_t{h.num_hqds} * sizeof(drm_tempo_hqd_info);
    if (hqds.size() < hqds_size)
        throw_short_answer(DRM_TEMPO_QUERY_HQDS, hqds.size(), hqds_size);
    state.hqds.reserve(h.num_hqds);
    for (std::size_t i = 0; i < h.num_hqds; i++) {
        const auto info = read_struct<drm_tempo_hqd_info>(hqds, sizeof(drm_tempo_query_hqds) +
                                                                    i * sizeof(drm_tempo_hqd_info));
        state.hqds.push_back(HqdInfo{
            .engine = to_engine(info.engine_class, info.engine_instance),
            .queue = info.queue,
            .pipe_priority = info.pipe_priority,
            .queue_priority = info.queue_priority,
        });
    }
}

} // namespace

Priority detail::current_priority_ceiling(const DeviceState& state) noexcept
{
    try {
        const auto device = query(state.fd.get(), DRM_TEMPO_QUERY_DEVICE);
        if (device.size() >= sizeof(drm_tempo_query_device))
            if (const auto ceiling =
                    priority_from_uapi(read_struct<drm_tempo_query_device>(device).max_priority))
                return *ceiling;
    } catch (...) {
        // fall back to what the device said when it was opened
    }
    return state.info.max_priority;
}

Device::Device(std::shared_ptr<detail::DeviceState> state) noexcept : state_(std::move(state)) {}
Device::Device(Device&&) noexcept = default;
Device& Device::operator=(Device&&) noexcept = default;
Device::~Device() = default;

std::vector<std::string> Device::enumerate()
{
    std::vector<std::string> candidates;

    const int count = drmGetDevices2(0, nullptr, 0);
    if (count > 0) {
        std::vector<drmDevicePtr> devices(static_cast<std::size_t>(count));
        const int filled = drmGetDevices2(0, devices.data(), count);
        for (int i = 0; i < filled; i++) {
            const drmDevicePtr device = devices[static_cast<std::size_t>(i)];
            if (device->available_nodes & (1 << DRM_NODE_RENDER))
                candidates.emplace_back(device->nodes[DRM_NODE_RENDER]);
        }
        if (filled > 0)
            drmFreeDevices(devices.data(), filled);
    }

    // drmGetDevices2() skips devices on buses libdrm does not parse (a
    // virtual device has none): look at every render node as well.
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator("/dev/dri", ec)) {
        const std::string name = entry.path().filename().string();
        if (name.starts_with(render_prefix) && std::find(candidates.begin(), candidates.end(),
                                                         entry.path().string()) == candidates.end())
            candidates.push_back(entry.path().string());
    }

    std::sort(candidates.begin(), candidates.end(),
              [](const auto& a, const auto& b) { return render_minor(a) < render_minor(b); });
    std::vector<std::string> result;
    for (const auto& path : candidates)
        if (is_tempo_node(path))
            result.push_back(path);
    return result;
}

Device Device::open(const std::string& path)
{
    auto state = std::make_shared<detail::DeviceState>();
    state->path = path;
    state->fd = open_node(path);
    state->version = read_version(state->fd.get(), path);
    if (state->version.name != driver_name)
        throw Error(ENODEV, "DRM_IOCTL_VERSION",
                    path + " is driven by \"" + state->version.name + "\", not tempo");
    const long page = ::sysconf(_SC_PAGESIZE);
    if (page > 0)
        state->page_size = static_cast<std::uint64_t>(page);
    read_queries(*state);
    return Device{std::move(state)};
}

std::optional<Device> Device::try_open()
{
    if (const char* path = std::getenv("TEMPO_DEVICE"); path && *path)
        return open(path);
    const auto paths = enumerate();
    if (paths.empty())
        return std::nullopt;
    return open(paths.front());
}

Device Device::open()
{
    auto device = try_open();
    if (!device)
        throw Error(ENODEV, "open",
                    "no DRM render node is driven by tempo (is the module loaded?)");
    return std::move(*device);
}

int Device::fd() const noexcept
{
    return state_->fd.get();
}

const std::string& Device::path() const noexcept
{
    return state_->path;
}

const DriverVersion& Device::driver_version() const noexcept
{
    return state_->version;
}

const DeviceInfo& Device::info() const noexcept
{
    return state_->info;
}

std::span<const EngineInfo> Device::engines() const noexcept
{
    return state_->engines;
}

std::span<const HqdInfo> Device::hqds() const noexcept
{
    return state_->hqds;
}

std::span<const HqdInfo> Device::hqds(const EngineInfo& engine) const
{
    const std::span<const HqdInfo> all = state_->hqds;
    if (engine.first_hqd > all.size() || engine.num_hqds > all.size() - engine.first_hqd)
        throw std::out_of_range("tempo::Device::hqds: queues of " + to_string(engine.engine) +
                                " are outside the HQD list");
    return all.subspan(engine.first_hqd, engine.num_hqds);
}

std::optional<EngineInfo> Device::find_engine(Engine engine) const noexcept
{
    for (const auto& info : state_->engines)
        if (info.engine == engine)
            return info;
    return std::nullopt;
}

std::uint32_t Device::engine_count(EngineClass engine_class) const noexcept
{
    return static_cast<std::uint32_t>(
        std::count_if(state_->engines.begin(), state_->engines.end(), [&](const EngineInfo& info) {
            return info.engine.engine_class == engine_class;
        }));
}

Priority Device::max_priority() const noexcept
{
    return state_->info.max_priority;
}

std::uint64_t Device::page_size() const noexcept
{
    return state_->page_size;
}

} // namespace tempo
