# fw.mk: firmware for the hpm-overlay core (fw/).
#   make fw  -> build/fw/monitor.elf, build/fw/monitor.hex (EBR image) and the
#               example RAM programs (build/fw/examples/*.elf).
# Other fragments may use: FW_MONITOR_ELF, FW_MONITOR_HEX, MON_SUM_H, FW_CC, FW_CFLAGS,
# FW_LDFLAGS, FW_RAM_LD, FW_RT_OBJS (crt0 + lib, for RAM C programs).

FW_BUILD   := $(BUILD)/fw
FW_CC      := $(RV_PREFIX)gcc
FW_OBJCOPY := $(RV_PREFIX)objcopy
FW_OBJDUMP := $(RV_PREFIX)objdump
FW_MARCH   := -march=rv32im_zicsr_zifencei -mabi=ilp32
# Debian's gcc picks the rv64 multilib for rv32im_zicsr: link with -march=rv32im.
FW_LIBGCC_DIR := $(shell $(FW_CC) -march=rv32im -mabi=ilp32 -print-file-name=libgcc.a 2>/dev/null | xargs dirname 2>/dev/null)
FW_CFLAGS  := $(FW_MARCH) -mcmodel=medany -O2 -g -std=gnu11 -Wall -Wextra -Werror \
              -ffreestanding -fno-common -fno-pic -ffunction-sections -fdata-sections \
              -Ifw/include -I$(GEN)
FW_ASFLAGS := $(FW_MARCH) -mcmodel=medany -g -Ifw/include -I$(GEN)
FW_LDFLAGS := -march=rv32im -mabi=ilp32 -nostdlib -nostartfiles -static -Wl,--gc-sections \
              -Wl,--no-warn-rwx-segments -L$(FW_LIBGCC_DIR)
FW_LIBS    := -lgcc
FW_RAM_LD  := fw/common/ram.ld
FW_EBR_LD  := fw/common/fw.ld

FW_LIB_SRCS := $(wildcard fw/lib/*.c)
FW_LIB_OBJS := $(patsubst fw/%.c,$(FW_BUILD)/%.o,$(FW_LIB_SRCS))
FW_CRT0     := $(FW_BUILD)/common/crt0.o
FW_RT_OBJS  := $(FW_CRT0) $(FW_LIB_OBJS)
FW_HDRS     := $(wildcard fw/include/*.h) $(MAP_H)

FW_MONITOR_ELF := $(FW_BUILD)/monitor.elf
FW_MONITOR_HEX := $(FW_BUILD)/monitor.hex
FW_EXAMPLES    := $(patsubst fw/examples/%.c,$(FW_BUILD)/examples/%.elf,$(wildcard fw/examples/*.c))

.PHONY: fw
fw: $(FW_MONITOR_ELF) $(FW_MONITOR_HEX) $(FW_EXAMPLES)

$(FW_BUILD)/common/%.o: fw/common/%.S fw/include/hpm_crt.h $(MAP_H)
	@mkdir -p $(dir $@)
	$(FW_CC) $(FW_ASFLAGS) -c $< -o $@

# the library implements memcpy/memset: keep gcc from calling them from inside
$(FW_BUILD)/lib/%.o: fw/lib/%.c $(FW_HDRS)
	@mkdir -p $(dir $@)
	$(FW_CC) $(FW_CFLAGS) -fno-builtin -fno-tree-loop-distribute-patterns -c $< -o $@

# the monitor (fw/monitor): C, the trap entry (entry.S) and the frame codec
FW_MONITOR_HDRS := $(FW_HDRS) $(wildcard fw/monitor/*.h) proto/hpm_proto.h $(EV_H)
# without the C extension every instruction is 4 bytes: link-time
# optimisation, shared prologues and no jump tables (40 bytes) keep the
# monitor inside the 8 KiB EBR; so do four of -Os's passes left out, whose
# value-range, dominator, jump-following CSE and caller-save work grows this
# code (216 bytes together, measured with gcc 12 when call stacks came in)
FW_MONITOR_OPT := -Os -flto -msave-restore -fno-jump-tables -fno-tree-vrp \
                  -fno-tree-dominator-opts -fno-cse-follow-jumps -fno-caller-saves
$(FW_BUILD)/monitor/%.o: fw/monitor/%.c $(FW_MONITOR_HDRS)
	@mkdir -p $(dir $@)
	$(FW_CC) $(FW_CFLAGS) $(FW_MONITOR_OPT) -Iproto -I$(GEN) -c $< -o $@

$(FW_BUILD)/monitor/hpm_proto.o: proto/hpm_proto.c proto/hpm_proto.h $(MAP_H)
	@mkdir -p $(dir $@)
	$(FW_CC) $(FW_CFLAGS) $(FW_MONITOR_OPT) -c $< -o $@

$(FW_BUILD)/monitor/%.o: fw/monitor/%.S $(FW_MONITOR_HDRS)
	@mkdir -p $(dir $@)
	$(FW_CC) $(FW_ASFLAGS) -c $< -o $@

$(FW_BUILD)/examples/%.o: fw/examples/%.c $(FW_HDRS)
	@mkdir -p $(dir $@)
	$(FW_CC) $(FW_CFLAGS) -c $< -o $@

FW_MONITOR_OBJS = $(patsubst fw/%.c,$(FW_BUILD)/%.o,$(wildcard fw/monitor/*.c)) \
                   $(patsubst fw/%.S,$(FW_BUILD)/%.o,$(wildcard fw/monitor/*.S)) \
                   $(FW_BUILD)/monitor/hpm_proto.o

# the monitor needs only crt0 without _exit, the default trap vector and
# tohost (every EBR byte counts)
FW_MONITOR_RT := $(FW_BUILD)/common/crt0_monitor.o
$(FW_BUILD)/common/crt0_monitor.o: fw/common/crt0.S fw/include/hpm_crt.h $(MAP_H)
	@mkdir -p $(dir $@)
	$(FW_CC) $(FW_ASFLAGS) -DHPM_MONITOR -c $< -o $@
$(FW_MONITOR_ELF): $(FW_MONITOR_RT) $(FW_MONITOR_OBJS) $(FW_EBR_LD)
	$(FW_CC) $(FW_LDFLAGS) $(FW_MONITOR_OPT) -march=rv32im_zicsr_zifencei -T $(FW_EBR_LD) -Wl,-Map,$(FW_BUILD)/monitor.map -o $@ $(FW_MONITOR_RT) $(FW_MONITOR_OBJS) $(FW_LIBS)
	@$(RV_PREFIX)size $@ | awk 'NR == 2 { printf "monitor: %d of 8192 EBR bytes (text %d, data %d); bss %d in MONRAM\n", $$1 + $$2, $$1, $$2, $$3 }'

# 2048 little-endian 32-bit words, one per line, for $readmemh (whole EBR).
$(FW_MONITOR_HEX): $(FW_MONITOR_ELF)
	$(FW_OBJCOPY) -O binary --pad-to 0x2000 --gap-fill 0 $< $@.bin
	od -An -v -t x4 -w4 $@.bin | tr -d ' ' > $@.tmp
	@test $$(wc -l < $@.tmp) -eq 2048 || { echo "$@: image is not 8 KiB" >&2; rm -f $@.tmp; exit 1; }
	mv $@.tmp $@

# the checksum the monitor reports (INFO, RUN reply), computed over the
# image the build made: libhpm refuses a board whose monitor differs
MON_SUM_H := $(GEN)/hpm_monitor_sum.h
$(MON_SUM_H): $(FW_MONITOR_HEX) tools/monsum.py
	python3 tools/monsum.py $(FW_MONITOR_HEX) \
	  $$($(RV_PREFIX)nm $(FW_MONITOR_ELF) | sed -n 's/^\([0-9a-f]*\) . __monitor_sum_end$$/\1/p') > $@.tmp
	mv $@.tmp $@

$(FW_BUILD)/examples/%.elf: $(FW_BUILD)/examples/%.o $(FW_RT_OBJS) $(FW_RAM_LD)
	$(FW_CC) $(FW_LDFLAGS) -T $(FW_RAM_LD) -o $@ $(FW_RT_OBJS) $< $(FW_LIBS)
.PRECIOUS: $(FW_BUILD)/examples/%.o $(FW_BUILD)/monitor/%.o
