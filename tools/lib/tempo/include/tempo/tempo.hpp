// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * libtempo: a C++20 library over the uAPI of the tempo DRM driver.
 * Everything is in namespace tempo; tempo::detail is internal.
 */
#pragma once

#include <tempo/buffer.hpp>
#include <tempo/command.hpp>
#include <tempo/command_list.hpp>
#include <tempo/context.hpp>
#include <tempo/device.hpp>
#include <tempo/error.hpp>
#include <tempo/event.hpp>
#include <tempo/packet.hpp>
#include <tempo/queue.hpp>
#include <tempo/submitter.hpp>
#include <tempo/sync.hpp>
#include <tempo/types.hpp>
#include <tempo/unique_fd.hpp>
#include <tempo/version.hpp>
