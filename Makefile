# SPDX-License-Identifier: GPL-2.0-only
#
# tempo: top-level build. See README.rst.

KVER    ?= $(shell scripts/kver.sh)
KDIR    ?= /lib/modules/$(KVER)/build
BUILD   ?= $(CURDIR)/build
CMAKE_BUILD := $(BUILD)/cmake
JOBS    ?= $(shell nproc)

.PHONY: all deps modules lib tools check demo install clean gates

all: modules tools

deps:
	scripts/install-deps.sh

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

$(CMAKE_BUILD)/CMakeCache.txt:
	cmake -S . -B $(CMAKE_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo

lib tools: $(CMAKE_BUILD)/CMakeCache.txt
	cmake --build $(CMAKE_BUILD) -j $(JOBS)

check: deps
	scripts/check.sh

demo: deps
	scripts/demo.sh

install: modules tools
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules_install
	DESTDIR=$(DESTDIR) cmake --install $(CMAKE_BUILD) --prefix $(or $(PREFIX),/usr/local)

gates:
	scripts/gates.sh

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean || true
	rm -rf $(BUILD)
