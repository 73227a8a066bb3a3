# fslens: one binary, built from lib/ analyzer/ collector/ tui/ scenarios/ cli/ and probes/.
#
#   make            build build/fslens (BPF side only where clang+bpftool+BTF+libbpf exist)
#   make deps       install missing Debian packages (apt-get)
#   make check      build and run every test (tests/run); T="unit cli" picks suites
#   make bench      benchmarks (bench/run), never part of check
#   make fuzz       libFuzzer run over the trace reader, bounded (FUZZ_SECONDS)
#   make demo       scratch ext4 on a loop device, record the main scenario, report
#   make install    PREFIX=/usr/local DESTDIR= (binary, man pages, docs, bash completion)
#   make uninstall  remove what make install installed (its manifest)
#   make man        build/man/*.1 from each command's --help (scripts/mkman.py)
#   make deb        build/fslens_VERSION_ARCH.deb with dpkg-deb (scripts/mkdeb.sh)
#   V=1             show full commands

.DEFAULT_GOAL := all
.DELETE_ON_ERROR:
.SUFFIXES:

PREFIX	?= /usr/local
DESTDIR	?=
SYSTEMDDIR ?= $(PREFIX)/lib/systemd/system
BUILD	?= build
FUZZ_SECONDS ?= 60

CC	?= gcc
CLANG	?= clang
BPFTOOL	?= $(shell command -v bpftool 2>/dev/null || ls /usr/sbin/bpftool 2>/dev/null)
# The release is the VERSION file; a build that is not the tagged release adds
# the commit (0.1.0+g1a2b3c4, .dirty with local changes), a Debian-sortable version.
RELEASE	:= $(shell cat VERSION 2>/dev/null || echo 0.0.0)
GITREV	:= $(shell git rev-parse --short HEAD 2>/dev/null)
GITTAG	:= $(shell git describe --tags --exact-match --dirty 2>/dev/null)
GITDIRTY := $(shell git diff --quiet HEAD -- 2>/dev/null || echo .dirty)
VERSION	:= $(if $(GITREV),$(if $(filter v$(RELEASE),$(GITTAG)),$(RELEASE),$(RELEASE)+g$(GITREV)$(GITDIRTY)),$(RELEASE))

ifeq ($(V),1)
Q =
msg =
else
Q = @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

# Feature detection: the analysis side needs only libc, zstd and ncurses.
HAVE_LIBBPF := $(shell pkg-config --exists libbpf 2>/dev/null && echo 1)
HAVE_CLANG  := $(shell command -v $(CLANG) >/dev/null 2>&1 && echo 1)
HAVE_BTF    := $(shell test -r /sys/kernel/btf/vmlinux && echo 1)
HAVE_EXT2FS := $(shell pkg-config --exists ext2fs 2>/dev/null && echo 1)
HAVE_MHD    := $(shell pkg-config --exists libmicrohttpd 2>/dev/null && echo 1)
ifeq ($(HAVE_LIBBPF)$(HAVE_CLANG)$(if $(BPFTOOL),1,),111)
ifneq ($(HAVE_BTF)$(wildcard probes/vmlinux.h),)
WITH_BPF := 1
endif
endif
ifeq ($(NO_BPF),1)
WITH_BPF :=
endif

WARN	:= -Wall -Wextra -Wno-unused-parameter -Wno-sign-compare -Wshadow -Wformat=2 \
	   -Wno-format-nonliteral -Wmissing-prototypes -Wstrict-prototypes
CFLAGS	?= -O2 -g
BASE_CFLAGS := -std=gnu11 $(WARN) -Iinclude -I$(BUILD) -D_GNU_SOURCE -MMD -MP
LDLIBS	:= -lzstd -lncursesw -lm -lpthread -lz
ifeq ($(WITH_BPF),1)
BASE_CFLAGS += -DFSL_HAVE_BPF
LDLIBS	+= $(shell pkg-config --libs libbpf) -lelf
endif
ifeq ($(HAVE_MHD),1)
BASE_CFLAGS += -DFSL_HAVE_MHD
LDLIBS	+= -lmicrohttpd
endif
ifeq ($(HAVE_EXT2FS),1)
BASE_CFLAGS += -DFSL_HAVE_EXT2FS
LDLIBS	+= -lext2fs -lcom_err
endif

# Sources. Files named *_bpf.c use libbpf and build only WITH_BPF.
ALL_SRC	:= $(wildcard lib/*.c analyzer/*.c analyzer/*/*.c tui/*.c scenarios/*.c \
	   collector/*.c cli/*.c)
BPF_SRC	:= $(filter %_bpf.c,$(ALL_SRC))
CORE_SRC := $(filter-out %_bpf.c cli/main.c,$(ALL_SRC))
ifeq ($(WITH_BPF),1)
CORE_SRC += $(BPF_SRC)
endif
PROBES	:= $(wildcard probes/*.bpf.c)
SKELS	:= $(patsubst probes/%.bpf.c,$(BUILD)/probes/%.skel.h,$(PROBES))

OBJS	  := $(patsubst %.c,$(BUILD)/obj/%.o,$(CORE_SRC))
ASAN_OBJS := $(patsubst %.c,$(BUILD)/asan/%.o,$(CORE_SRC))
UNIT_SRC  := $(wildcard tests/unit/*.c)
UNIT_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(UNIT_SRC))
UNIT_ASAN := $(patsubst %.c,$(BUILD)/asan/%.o,$(UNIT_SRC))
HELPERS   := $(patsubst tests/helpers/%.c,$(BUILD)/tests/%,$(wildcard tests/helpers/*.c))
# float-cast-overflow is not in GCC's "undefined" group: named, or a double
# too large for a uint64_t goes unreported (issue 19: replay's journal costs).
SAN	  := -fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer \
	     -fno-sanitize-recover=all

# The libFuzzer targets build with every `make` where clang and its libFuzzer
# runtime are (they run only in `make fuzz`), so a change to what they call
# cannot leave them broken.
HAVE_LIBFUZZER := $(if $(HAVE_CLANG),$(shell test -f "$$($(CLANG) -print-file-name=libclang_rt.fuzzer-$$(uname -m).a)" && echo 1))
FUZZ_BINS := $(if $(HAVE_LIBFUZZER),$(BUILD)/fuzz_reader $(BUILD)/fuzz_meta $(BUILD)/fuzz_replay)

.PHONY: all deps check bench fuzz demo install uninstall man deb clean distclean
all: $(BUILD)/fslens $(BUILD)/fslens-asan $(BUILD)/tests/unit $(BUILD)/tests/unit-asan $(HELPERS) \
     $(FUZZ_BINS)

$(BUILD)/fslens: $(OBJS) $(BUILD)/obj/cli/main.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The same binary on ASan+UBSan: the cli-asan, tui-asan and robust-asan suites run it.
$(BUILD)/fslens-asan: $(ASAN_OBJS) $(BUILD)/asan/cli/main.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(SAN) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/tests/unit: $(OBJS) $(UNIT_OBJS)
	$(call msg,LINK,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/tests/unit-asan: $(ASAN_OBJS) $(UNIT_ASAN)
	$(call msg,LINK,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(SAN) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Helpers may use the library (lib/, analyzer/, ...), not the commands.
LIB_OBJS  := $(filter-out $(BUILD)/obj/cli/%,$(OBJS))
$(BUILD)/tests/%: tests/helpers/%.c $(LIB_OBJS)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(BASE_CFLAGS) -Itests/unit -o $@ $< $(LIB_OBJS) $(LDLIBS)

# The version is a header rewritten only when it changes, so a new commit
# relinks with the right --version and an unchanged one rebuilds nothing.
$(BUILD)/fsl_version.h: FORCE
	$(Q)mkdir -p $(@D)
	$(Q)echo '#define FSL_VERSION "$(VERSION)"' > $@.tmp
	$(Q)if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi
$(BUILD)/obj/cli/main.o: $(BUILD)/fsl_version.h
.PHONY: FORCE
FORCE:

# Every object waits for the skeletons (the BPF-side ones include them; the
# cost for the rest is nil once they exist).
$(BUILD)/obj/%.o: %.c | $(if $(WITH_BPF),$(SKELS))
	$(call msg,CC,$<)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(BASE_CFLAGS) -c $< -o $@

# The sanitizer flags are in a file rewritten only when they change, so a new
# flag (float-cast-overflow) rebuilds the ASan objects without a make clean.
$(BUILD)/asan.flags: FORCE
	$(Q)mkdir -p $(@D)
	$(Q)echo '$(SAN) $(FUZZ_SAN)' > $@.tmp
	$(Q)if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

$(BUILD)/asan/%.o: %.c $(BUILD)/asan.flags | $(if $(WITH_BPF),$(SKELS))
	$(call msg,CC-ASAN,$<)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -O1 -g $(SAN) $(BASE_CFLAGS) -c $< -o $@

# ---- BPF side ----
ARCH	:= $(shell uname -m | sed 's/x86_64/x86/;s/aarch64/arm64/;s/ppc64le/powerpc/')
BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_$(ARCH) -Iinclude -I$(BUILD) -MMD -MP \
	      -Wall -Wno-unused-function

# vmlinux.h from this kernel's BTF; probes/vmlinux.h (checked in) is the fallback.
$(BUILD)/vmlinux.h:
	$(call msg,GEN,$@)
	$(Q)mkdir -p $(@D)
	$(Q)if [ -r /sys/kernel/btf/vmlinux ]; then \
		$(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c > $@.tmp && mv $@.tmp $@; \
	else cp probes/vmlinux.h $@; fi

$(BUILD)/probes/%.bpf.o: probes/%.bpf.c $(BUILD)/vmlinux.h
	$(call msg,BPF,$<)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(BUILD)/probes/%.skel.h: $(BUILD)/probes/%.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name $(subst -,_,$*)_bpf > $@.tmp && mv $@.tmp $@

# ---- targets ----
deps:
	$(Q)scripts/deps.sh

# check and demo first install what is missing, then rebuild with a fresh
# feature detection (a sub-make), so they work on a fresh machine.
check: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)BUILD=$(BUILD) tests/run $(T)

bench: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)BUILD=$(BUILD) bench/run $(B)

# libFuzzer targets: the trace reader, the metadata parsers, replay. Each runs
# FUZZ_SECONDS; then the scripted damage run at its large size on ASan. Any
# sanitizer report stops a target (no recovery): a finding is a crash file.
FUZZ_LIB := $(filter lib/%,$(CORE_SRC))
# the replay runs with the context stage (who is the workload, wait and CPU classes)
FUZZ_MODEL := $(filter analyzer/replay/% analyzer/model/%,$(CORE_SRC)) analyzer/an_util.c \
	analyzer/context.c analyzer/scope.c analyzer/waitclass.c analyzer/cpuclass.c \
	analyzer/blockclass.c
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS := -O1 -g -std=gnu11 -Iinclude -D_GNU_SOURCE -MMD -MP
FUZZ_OBJ = $(patsubst %.c,$(BUILD)/fuzz-obj/%.o,$(1))

$(BUILD)/fuzz-obj/%.o: %.c $(BUILD)/asan.flags
	$(call msg,CC-FUZZ,$<)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(FUZZ_SAN) -c $< -o $@

$(BUILD)/fuzz_reader: $(call FUZZ_OBJ,$(FUZZ_LIB) tests/fuzz/fuzz_reader.c)
$(BUILD)/fuzz_meta: $(call FUZZ_OBJ,$(FUZZ_LIB) analyzer/model/alloc.c tests/fuzz/fuzz_meta.c)
$(BUILD)/fuzz_replay: $(call FUZZ_OBJ,$(FUZZ_LIB) $(FUZZ_MODEL) tests/fuzz/fuzz_replay.c)
$(BUILD)/fuzz_%:
	$(call msg,LINK,$@)
	$(Q)$(CLANG) -fsanitize=fuzzer $(FUZZ_SAN) -o $@ $^ -lzstd -lm

fuzz: all $(BUILD)/fuzz_reader $(BUILD)/fuzz_meta $(BUILD)/fuzz_replay
	$(call msg,FUZZ,$(BUILD)/fuzz_reader $(BUILD)/fuzz_meta $(BUILD)/fuzz_replay)
	$(Q)mkdir -p $(BUILD)/fuzz-corpus $(BUILD)/fuzz-meta-corpus
	$(Q)$(BUILD)/tests/unit --make-corpus $(BUILD)/fuzz-corpus >/dev/null
	$(Q)for m in geom names past longio; do $(BUILD)/tests/fsl_hostile $(BUILD)/fuzz-corpus/h-$$m $$m; done
	$(Q)printf 'ext4.block_size=4096\next4.blocks_count=131072\next4.blocks_per_group=32768\next4.inodes_per_group=8192\next4.group_count=4\n' \
		>$(BUILD)/fuzz-meta-corpus/geom
	$(Q)printf 'xfs.block_size=4096\nxfs.ag_count=4\nxfs.ag_blocks=65536\nxfs.ag_block_log=16\nxfs.inode_size=512\nxfs.data_blocks=262144\nxfs.log_blocks=2560\n' \
		>$(BUILD)/fuzz-meta-corpus/xfs
	$(Q)$(BUILD)/fuzz_reader -max_total_time=$(FUZZ_SECONDS) -max_len=65536 $(BUILD)/fuzz-corpus
	$(Q)$(BUILD)/fuzz_meta -max_total_time=$(FUZZ_SECONDS) -max_len=4096 $(BUILD)/fuzz-meta-corpus
	$(Q)$(BUILD)/fuzz_replay -max_total_time=$(FUZZ_SECONDS) -max_len=65536 $(BUILD)/fuzz-corpus
	$(Q)DAMAGE_N=200 BUILD=$(BUILD) T=robust-asan TESTS_FILTER=damage tests/run robust-asan

demo: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)$(BUILD)/fslens demo $(DEMO_ARGS)

# The man pages are made from the binary's --help, so they follow it.
man: $(BUILD)/man/fslens.1
$(BUILD)/man/fslens.1: $(BUILD)/fslens scripts/mkman.py VERSION
	$(call msg,MAN,$(BUILD)/man)
	$(Q)python3 scripts/mkman.py $(BUILD)/fslens $(BUILD)/man $(VERSION)

install: $(BUILD)/fslens $(BUILD)/man/fslens.1
	$(Q)BUILD=$(BUILD) DESTDIR=$(DESTDIR) PREFIX=$(PREFIX) scripts/install.sh install

uninstall:
	$(Q)DESTDIR=$(DESTDIR) PREFIX=$(PREFIX) scripts/install.sh uninstall

deb: $(BUILD)/fslens $(BUILD)/man/fslens.1
	$(Q)BUILD=$(BUILD) VERSION=$(VERSION) scripts/mkdeb.sh

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
