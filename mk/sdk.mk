# sdk.mk: the SDK for users' own programs (fw/sdk, docs/hpmctl.md "Your own
# programs"): start-up code, system layer under picolibc, linker script,
# headers and the hpm-cc wrapper.
#   make sdk  -> build/sdk/share/hpm-overlay/sdk/{crt0.o,hpm_sys.o,hpm.ld,include/}
#                (include/: fw/sdk/include and fw/include/hpm_region.h)
#                build/sdk/bin/hpm-cc
# `make install` copies both trees under PREFIX. The build tree's hpm-cc
# works too (it finds the SDK relative to itself).
# Other fragments may use: SDK_TREE, SDK_FILES, HPM_CC, PICOLIBC_DIR.

PICOLIBC_DIR ?= /usr/lib/picolibc/riscv64-unknown-elf
SDK_TREE     := $(BUILD)/sdk
SDK_DIR      := $(SDK_TREE)/share/hpm-overlay/sdk
HPM_CC       := $(SDK_TREE)/bin/hpm-cc
SDK_HDRS     := $(wildcard fw/sdk/include/*.h)
# the region markers (hpmctl stat --regions) are shared with the workloads
SDK_FILES    := $(SDK_DIR)/crt0.o $(SDK_DIR)/hpm_sys.o $(SDK_DIR)/hpm.ld \
                $(patsubst fw/sdk/include/%,$(SDK_DIR)/include/%,$(SDK_HDRS)) \
                $(SDK_DIR)/include/hpm_region.h
SDK_CFLAGS   := -march=rv32im_zicsr_zifencei -mabi=ilp32 -mcmodel=medany -O2 -g -std=gnu11 \
                -Wall -Wextra -Werror -ffunction-sections -fdata-sections \
                -isystem $(PICOLIBC_DIR)/include -Ifw/sdk/include

# the SDK's example programs (fw/sdk/examples), built with hpm-cc so that
# a change of the SDK that breaks them fails the build; the catalogue's
# header first, so that hpm_topdown.h checks its CSR numbers against it
SDK_EXAMPLES := $(patsubst fw/sdk/examples/%.c,$(BUILD)/sdk-examples/%.elf,$(wildcard fw/sdk/examples/*.c))

.PHONY: sdk
sdk: $(SDK_FILES) $(HPM_CC) $(SDK_EXAMPLES)
fw: sdk

$(BUILD)/sdk-examples/%.elf: fw/sdk/examples/%.c $(SDK_FILES) $(HPM_CC) $(MAP_H)
	@mkdir -p $(@D)
	$(HPM_CC) -O2 -Wall -Wextra -Werror -include $(MAP_H) -o $@ $<

$(SDK_DIR)/crt0.o: fw/sdk/crt0.S fw/include/hpm_crt.h
	@mkdir -p $(@D)
	$(FW_CC) $(FW_ASFLAGS) -c $< -o $@
$(SDK_DIR)/hpm_sys.o: fw/sdk/hpm_sys.c $(SDK_HDRS)
	@mkdir -p $(@D)
	$(FW_CC) $(SDK_CFLAGS) -c $< -o $@
$(SDK_DIR)/hpm.ld: fw/sdk/hpm.ld
	@mkdir -p $(@D)
	cp $< $@
$(SDK_DIR)/include/%.h: fw/sdk/include/%.h
	@mkdir -p $(@D)
	cp $< $@
$(SDK_DIR)/include/hpm_region.h: fw/include/hpm_region.h
	@mkdir -p $(@D)
	cp $< $@
$(HPM_CC): fw/sdk/hpm-cc.in
	@mkdir -p $(@D)
	sed 's|@PICOLIBC@|$(PICOLIBC_DIR)|' $< > $@.tmp && chmod 755 $@.tmp && mv $@.tmp $@
