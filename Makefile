# SPDX-License-Identifier: GPL-2.0
#
# affsched - top-level targets.  Everything generated goes to build/.
#   make demo    the main job: patched 5.10 in a QEMU guest, loads on/off
#   make check   every test; ends with "N passed, N failed"
#   make bench   UnixBench loads and hackbench on/off, static confinement,
#                the OSQ runs, then the Kunpeng-like large guest
#   make overhead  cost of the hold-ratio tracking alone (instruction-counted guest)
# demo, bench and overhead are scripts/bench/demo.sh in MODE demo, bench and
# overhead (its header has what each runs and the environment it reads);
# bench then runs scripts/bench/large-guest.sh unless LARGE=0.  Their defaults:
#   demo      ROUNDS=3 and UnixBench's durations (context1 10 s, shell8
#             60 s, the file tests' copy pass 30 s): about 25 min of guest
#   bench     ROUNDS=3 CTX_SECONDS=SHELL_SECONDS=5 FILE_SECONDS=30 (UnixBench's
#             copy pass: the static comparison is of the file tests)
#             CTX_COPIES=8; on a 2-core host about 75 min, the OSQ runs 15
#             more (OSQ_COPIES=0 leaves them out), the large guest about 10
#   overhead  ROUNDS=5 SECONDS_PER_LOAD=2 (guest seconds) under
#             instruction counting (AFFSCHED_ACCEL=icount; tcg for host time)
#   make rpm     the kmod RPM of the module against build/obj/$(RPM_ARCH) (x86_64)
#   make kernel ARCH=x86_64|arm64, make module, make selftests
#   make base, make apply, make export   (the kernel tree and patches/)
#   make check-models-full  the spin models' larger configurations too
#                (make check runs the claims: scripts/check/models-check.sh)
#   make kunit   the KUnit suites under UML with kunit.py (make check runs
#                them built into its guest kernels)
#   make bisect-link  every prefix of the series builds and links a whole
#                ARCH kernel (make check compiles each prefix's objects and
#                links only the series' ends)

ARCH ?= arm64
RPM_ARCH ?= x86_64

demo:
	scripts/bench/demo.sh

check:
	scripts/check/check.sh

bench:
	MODE=bench ROUNDS=$${ROUNDS:-3} CTX_SECONDS=$${CTX_SECONDS:-$${SECONDS_PER_LOAD:-5}} \
		SHELL_SECONDS=$${SHELL_SECONDS:-$${SECONDS_PER_LOAD:-5}} \
		CTX_COPIES=$${CTX_COPIES:-8} scripts/bench/demo.sh; st=$$?; \
	if [ "$${LARGE:-1}" != 0 ]; then echo; scripts/bench/large-guest.sh || st=1; fi; \
	exit $$st

overhead:
	MODE=overhead ROUNDS=$${ROUNDS:-5} SECONDS_PER_LOAD=$${SECONDS_PER_LOAD:-2} \
		AFFSCHED_ACCEL=$${AFFSCHED_ACCEL:-icount} scripts/bench/demo.sh

# The kernel tree is built first only if it is not there yet.
rpm:
	scripts/build/deps.sh
	test -f $${AFFSCHED_BUILD:-build}/obj/$(RPM_ARCH)/Module.symvers || \
		$(MAKE) kernel ARCH=$(RPM_ARCH)
	scripts/tools/build-rpm.sh $(RPM_ARCH)

base:
	scripts/build/deps.sh
	scripts/build/prepare-base.sh

apply: base
	scripts/build/apply-series.sh

export:
	scripts/build/export-series.sh

kernel: apply
	scripts/build/build-kernel.sh $(ARCH)

module: kernel
	scripts/build/build-module.sh $(ARCH)

selftests: apply
	scripts/build/build-selftests.sh $(ARCH)

check-models-full:
	scripts/build/deps.sh
	scripts/check/models-check.sh --full

kunit: apply
	scripts/check/kunit-uml.sh run

bisect-link: apply
	scripts/check/bisect-objects.sh --link $(ARCH)

clean:
	rm -rf build

.PHONY: demo check bench overhead rpm base apply export kernel module selftests kunit bisect-link check-models-full clean
