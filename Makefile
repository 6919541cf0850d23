# SPDX-License-Identifier: GPL-2.0
#
# affsched - top-level targets.  Everything generated goes to build/.
#   make demo    the main job: patched 5.10 in a QEMU guest, loads on/off
#   make check   every test; ends with "N passed, N failed"
#   make bench   UnixBench loads and hackbench on/off, static confinement,
#                the Kunpeng-like large guest (scripts/bench.sh)
#   make overhead  cost of the hold-ratio tracking alone (instruction-counted guest)
#   make rpm     the kmod RPM of the module against build/obj/$(RPM_ARCH) (x86_64)
#   make kernel ARCH=x86_64|arm64, make module, make selftests
#   make base, make apply, make export   (the kernel tree and patches/)

ARCH ?= arm64
RPM_ARCH ?= x86_64

demo:
	scripts/demo.sh

check:
	scripts/check.sh

bench:
	scripts/bench.sh

overhead:
	scripts/overhead.sh

# The kernel tree is built first only if it is not there yet.
rpm:
	scripts/deps.sh
	test -f $${AFFSCHED_BUILD:-build}/obj/$(RPM_ARCH)/Module.symvers || \
		$(MAKE) kernel ARCH=$(RPM_ARCH)
	scripts/build-rpm.sh $(RPM_ARCH)

base:
	scripts/deps.sh
	scripts/prepare-base.sh

apply: base
	scripts/apply-series.sh

export:
	scripts/export-series.sh

kernel: apply
	scripts/build-kernel.sh $(ARCH)

module: kernel
	scripts/build-module.sh $(ARCH)

selftests: apply
	scripts/build-selftests.sh $(ARCH)

clean:
	rm -rf build

.PHONY: demo check bench overhead rpm base apply export kernel module selftests clean
