# SPDX-License-Identifier: GPL-2.0-only
#
# tempo: top-level build. See README.rst.

KVER    ?= $(shell scripts/kver.sh)
KDIR    ?= $(shell scripts/kdir.sh $(KVER))
BUILD   ?= $(CURDIR)/build
CMAKE_BUILD := $(BUILD)/cmake
JOBS    ?= $(shell nproc)
PREFIX  ?= /usr/local
VERSION := $(shell scripts/version.sh)
DKMS_SRC ?= /usr/src/tempo-$(VERSION)

.PHONY: all deps modules lib tools check demo install uninstall install-test clean gates \
	docs dkms-source dkms-install deb help

all: modules tools

# One line per target (the install test checks that every .PHONY target
# has one), then the variables a caller sets.
help:
	@echo 'Targets:'
	@echo '  all           modules and tools (the default)'
	@echo '  deps          install the Debian packages the build and tests need (root)'
	@echo '  modules       build tempo.ko for KVER'
	@echo '  lib           build libtempo (the same CMake build as tools)'
	@echo '  tools         build libtempo, the tools and the tests in build/cmake'
	@echo '  check         deps, then every test in the QEMU VM, the install test and the gates'
	@echo '  demo          deps, then the VR scenario in the VM, with its picture'
	@echo '  install       the module, the uAPI header, libtempo and the tools (DESTDIR, PREFIX)'
	@echo '  uninstall     remove what make install put in place'
	@echo '  install-test  DKMS and make install in temporary trees, with users of the library'
	@echo '  dkms-source   the DKMS source tree in DKMS_SRC'
	@echo '  dkms-install  dkms-source, then dkms install for KVER'
	@echo '  deb           the Debian packages (tempo-dkms, libtempo, tempo-tools) in BUILD/deb'
	@echo '  gates         W=1, checkpatch, sparse, kernel-doc, clang-format and the other gates'
	@echo '  docs          the HTML documentation (Sphinx) in build/docs'
	@echo '  clean         remove the module objects and build/'
	@echo '  help          this text'
	@echo 'Variables:'
	@echo '  KVER=$(KVER)  KDIR=$(KDIR)'
	@echo '  BUILD=$(BUILD)  JOBS=$(JOBS)  PREFIX=$(PREFIX)  DESTDIR=$(DESTDIR)'
	@echo '  CMAKE_ARGS=$(CMAKE_ARGS)  (more options of the first CMake configure)'

deps:
	scripts/install-deps.sh

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

# A configure that failed leaves CMakeCache.txt without a build system:
# configure again until the build system exists.
$(CMAKE_BUILD)/Makefile:
	cmake -S . -B $(CMAKE_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_ARGS)

lib tools: $(CMAKE_BUILD)/Makefile
	cmake --build $(CMAKE_BUILD) -j $(JOBS)

check: deps
	scripts/check.sh

demo: deps
	scripts/demo.sh

# The module below $(DESTDIR)/lib/modules/$(KVER)/updates/, then the uAPI
# header, libtempo, its CMake and pkg-config files and the tools below
# $(DESTDIR)$(PREFIX). depmod runs only for a real install (no DESTDIR);
# Kbuild skips it without a System.map, which Debian's headers lack.
# ldconfig too: programs other than the tools find the shared libtempo
# in /usr/local/lib through its cache.
install: modules tools
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_PATH=$(DESTDIR) modules_install
	$(if $(DESTDIR),,depmod -a $(KVER))
	DESTDIR=$(DESTDIR) cmake --install $(CMAKE_BUILD) --prefix $(PREFIX)
	$(if $(DESTDIR),,ldconfig)

# Removes what make install put in place: the module and the files of
# CMake's install manifest (the last install's DESTDIR and PREFIX), then
# tempo's own directories when they are empty.
uninstall:
	rm -f $(DESTDIR)/lib/modules/$(KVER)/updates/drivers/gpu/drm/tempo/tempo.ko*
	$(if $(DESTDIR),,depmod -a $(KVER))
	if [ -f $(CMAKE_BUILD)/install_manifest.txt ]; then \
		sed 's|^|$(DESTDIR)|' $(CMAKE_BUILD)/install_manifest.txt | \
			xargs -r -d '\n' rm -f; fi
	$(if $(DESTDIR),,ldconfig)
	for d in lib/modules/$(KVER)/updates/drivers/gpu/drm/tempo \
		 $(PREFIX)/include/tempo $(PREFIX)/lib/cmake/tempo \
		 $(PREFIX)/share/doc/tempo/LICENSES/preferred \
		 $(PREFIX)/share/doc/tempo/LICENSES $(PREFIX)/share/doc/tempo; do \
		rmdir --ignore-fail-on-non-empty $(DESTDIR)/$$d 2>/dev/null || true; done

# The source tree of the DKMS package, $(DESTDIR)$(DKMS_SRC); dkms-install
# also registers, builds and installs it with dkms for $(KVER).
dkms-source:
	rm -rf $(DESTDIR)$(DKMS_SRC)
	scripts/dkms-source.sh $(DESTDIR)$(DKMS_SRC)

dkms-install: dkms-source
	dkms install -m tempo -v $(VERSION) -k $(KVER)

# tempo-dkms, libtempo0.1, libtempo-dev and tempo-tools from debian/, in
# $(BUILD)/deb; see scripts/deb.sh.
deb:
	JOBS=$(JOBS) scripts/deb.sh $(BUILD)/deb

# make install, DKMS and the users of the installed library; see
# tests/install/run.sh.
install-test:
	tests/install/run.sh

docs:
	scripts/docs.sh

gates:
	scripts/gates.sh

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean || true
	rm -rf $(BUILD)
