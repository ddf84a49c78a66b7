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
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
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

struct FreeVersion {
    void operator()(drmVersionPtr version) const noexcept { drmFreeVersion(version); }
};
using UniqueVersion = std::unique_ptr<drmVersion, FreeVersion>;

std::string version_string(const char* text, int length)
{
    return {text, static_cast<std::size_t>(length)};
}

// The driver identity; throws when @fd is not a DRM device.
DriverVersion read_version(int fd, const std::string& path)
{
    errno = 0;
    const UniqueVersion version{drmGetVersion(fd)};
    if (!version)
        throw Error(errno ? errno : ENODEV, "drmGetVersion", path + " is not a DRM device");
    return DriverVersion{
        .name = version_string(version->name, version->name_len),
        .date = version_string(version->date, version->date_len),
        .description = version_string(version->desc, version->desc_len),
        .major = version->version_major,
        .minor = version->version_minor,
        .patch = version->version_patchlevel,
    };
}

bool is_tempo_node(const std::string& path)
{
    const UniqueFd fd{::open(path.c_str(), O_RDWR | O_CLOEXEC)};
    if (!fd)
        return false;
    const UniqueVersion version{drmGetVersion(fd.get())};
    return version && version_string(version->name, version->name_len) == driver_name;
}

// The DRM devices that libdrm finds, freed with this object.
class DrmDevices {
public:
    DrmDevices()
    {
        const int count = checked(drmGetDevices2(0, nullptr, 0));
        if (count == 0)
            return;
        devices_.resize(static_cast<std::size_t>(count));
        const int filled = checked(drmGetDevices2(0, devices_.data(), count));
        devices_.resize(static_cast<std::size_t>(std::min(filled, count)));
    }
    DrmDevices(const DrmDevices&) = delete;
    DrmDevices& operator=(const DrmDevices&) = delete;
    ~DrmDevices()
    {
        if (!devices_.empty())
            drmFreeDevices(devices_.data(), static_cast<int>(devices_.size()));
    }

    [[nodiscard]] std::span<const drmDevicePtr> get() const noexcept { return devices_; }

private:
    // The count that drmGetDevices2() returned as @ret: none without /dev/dri.
    static int checked(int ret)
    {
        if (ret == -ENOENT)
            return 0;
        if (ret < 0)
            throw Error(-ret, "drmGetDevices2", "listing the DRM devices");
        return ret;
    }

    std::vector<drmDevicePtr> devices_;
};

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
    case DRM_TEMPO_QUERY_LIMITS:
        return "DRM_TEMPO_QUERY_LIMITS";
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

// The answer of a query of one fixed-size struct; throws when it is shorter.
template <typename T>
T query_struct(int fd, std::uint32_t id)
{
    const auto answer = query(fd, id);
    if (answer.size() < sizeof(T))
        throw_short_answer(id, answer.size(), sizeof(T));
    return read_struct<T>(answer);
}

Engine to_engine(std::uint16_t engine_class, std::uint16_t instance)
{
    return Engine{static_cast<EngineClass>(engine_class), instance};
}

FileLimits read_limits(int fd)
{
    const auto l = query_struct<drm_tempo_query_limits>(fd, DRM_TEMPO_QUERY_LIMITS);
    return FileLimits{
        .max_contexts = l.max_contexts,
        .max_mappings = l.max_mappings,
        .max_jobs = l.max_jobs,
        .close_wait = std::chrono::milliseconds{l.close_wait_ms},
    };
}

DeviceInfo read_device(int fd)
{
    const auto d = query_struct<drm_tempo_query_device>(fd, DRM_TEMPO_QUERY_DEVICE);
    return DeviceInfo{
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
        .limits = read_limits(fd),
    };
}

/*
 * The entries of an array query: a header of @header_size bytes whose
 * __u32 at @count_offset counts them, then the Entry array. Throws when
 * the answer is shorter. (The header structs end with a flexible array,
 * which C++ cannot value-initialise: only their layout is used.)
 */
template <typename Entry>
std::vector<Entry> read_array(int fd, std::uint32_t id, std::size_t header_size,
                              std::size_t count_offset)
{
    const auto answer = query(fd, id);
    const std::size_t n = read_struct<std::uint32_t>(answer, count_offset);
    const std::size_t needed = header_size + n * sizeof(Entry);
    if (answer.size() < needed)
        throw_short_answer(id, answer.size(), needed);
    std::vector<Entry> entries;
    entries.reserve(n);
    for (std::size_t i = 0; i < n; i++)
        entries.push_back(read_struct<Entry>(answer, header_size + i * sizeof(Entry)));
    return entries;
}

std::vector<EngineInfo> read_engines(int fd)
{
    std::vector<EngineInfo> engines;
    for (const auto& info : read_array<drm_tempo_engine_info>(
             fd, DRM_TEMPO_QUERY_ENGINES, sizeof(drm_tempo_query_engines),
             offsetof(drm_tempo_query_engines, num_engines)))
        engines.push_back(EngineInfo{
            .engine = to_engine(info.engine_class, info.engine_instance),
            .num_hqds = info.num_hqds,
            .first_hqd = info.first_hqd,
        });
    return engines;
}

std::vector<HqdInfo> read_hqds(int fd)
{
    std::vector<HqdInfo> hqds;
    for (const auto& info :
         read_array<drm_tempo_hqd_info>(fd, DRM_TEMPO_QUERY_HQDS, sizeof(drm_tempo_query_hqds),
                                        offsetof(drm_tempo_query_hqds, num_hqds)))
        hqds.push_back(HqdInfo{
            .engine = to_engine(info.engine_class, info.engine_instance),
            .queue = info.queue,
            .pipe_priority = info.pipe_priority,
            .queue_priority = info.queue_priority,
        });
    return hqds;
}

void read_queries(detail::DeviceState& state)
{
    const int fd = state.fd.get();
    state.info = read_device(fd);
    state.engines = read_engines(fd);
    state.hqds = read_hqds(fd);
}

} // namespace

Priority detail::current_priority_ceiling(const DeviceState& state) noexcept
{
    try {
        const auto device =
            query_struct<drm_tempo_query_device>(state.fd.get(), DRM_TEMPO_QUERY_DEVICE);
        if (const auto ceiling = priority_from_uapi(device.max_priority))
            return *ceiling;
    } catch (...) {
        // a failed or short query: fall back to what the device said when it was opened
    }
    return state.info.max_priority;
}

Device::Device(std::shared_ptr<detail::DeviceState> state) noexcept : state_(std::move(state)) {}
Device::Device(Device&&) noexcept = default;
Device& Device::operator=(Device&&) noexcept = default;
Device::~Device() = default;

std::vector<std::string> Device::enumerate()
{
    std::vector<std::string> nodes;
    const DrmDevices devices;
    for (const drmDevicePtr device : devices.get())
        if (device->available_nodes & (1 << DRM_NODE_RENDER))
            nodes.emplace_back(device->nodes[DRM_NODE_RENDER]);
    std::sort(nodes.begin(), nodes.end(),
              [](const auto& a, const auto& b) { return render_minor(a) < render_minor(b); });
    std::erase_if(nodes, [](const std::string& path) { return !is_tempo_node(path); });
    return nodes;
}

Device Device::open(const std::string& path)
{
    auto state = std::make_shared<detail::DeviceState>();
    state->path = path;
    state->fd = open_node(path);
    state->version = read_version(state->fd.get(), path);
    if (state->version.name != driver_name)
        throw Error(ENODEV, "drmGetVersion",
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
        throw Error(ENODEV, "drmGetDevices2",
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

namespace {

// DRM_IOCTL_TEMPO_SCHED: @op on @client_fd's file or its context @context.
void sched(const detail::DeviceState& state, std::uint32_t op, int client_fd, ContextId context,
           std::optional<Priority> priority)
{
    drm_tempo_sched args{
        .op = op,
        .fd = client_fd,
        .ctx_id = context.value(),
        .priority = priority ? to_uapi(*priority) : DRM_TEMPO_PRIORITY_UNSET,
        .flags = 0,
        .pad = 0,
    };
    detail::ioctl_or_throw(state.fd.get(), TEMPO_IOCTL(DRM_IOCTL_TEMPO_SCHED), &args, [&] {
        std::string what = op == DRM_TEMPO_SCHED_FILE_PRIORITY_OVERRIDE
                               ? "the contexts of the client on fd " + std::to_string(client_fd)
                               : "context " + std::to_string(context.value()) +
                                     " of the client on fd " + std::to_string(client_fd);
        return (priority ? "overriding the priority of " : "removing the priority override of ") +
               what;
    });
}

} // namespace

void Device::override_priority(int client_fd, std::optional<Priority> priority) const
{
    sched(*state_, DRM_TEMPO_SCHED_FILE_PRIORITY_OVERRIDE, client_fd, ContextId{}, priority);
}

void Device::override_priority(int client_fd, ContextId context,
                               std::optional<Priority> priority) const
{
    sched(*state_, DRM_TEMPO_SCHED_CTX_PRIORITY_OVERRIDE, client_fd, context, priority);
}

} // namespace tempo
