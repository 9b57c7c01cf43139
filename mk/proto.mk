# proto.mk: the link protocol codec (proto/), its unit test and fuzzer (tests/proto/).
#   make test-proto   build + run the unit test under ASan/UBSan; last line
#                     "proto: N passed, M failed"
#   make fuzz         libFuzzer on the decoder for FUZZ_SECONDS (default 60)
#   make fuzz-short   the same for 10 s (part of make test)
#   make proto-size   size of the codec compiled for the monitor (rv32, -Os)
# Other fragments may use: PROTO_SRC, PROTO_HDR, PROTO_INC (-Iproto),
# PROTO_FW_OBJ (the codec built with FW_CC/FW_CFLAGS -Os for the monitor).

PROTO_BUILD  := $(BUILD)/proto
PROTO_SRC    := proto/hpm_proto.c
PROTO_HDR    := proto/hpm_proto.h $(MAP_H)
PROTO_INC    := -Iproto -I$(GEN)
PROTO_FW_OBJ := $(PROTO_BUILD)/rv32/hpm_proto.o

# clang when present (needed for the fuzzer), else the host compiler
PROTO_CC     ?= $(shell command -v clang >/dev/null 2>&1 && echo clang || echo $(HOST_CC))
PROTO_SAN    := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
PROTO_CFLAGS := -std=c11 -O1 -g -Wall -Wextra -Werror $(PROTO_INC)
FUZZ_SECONDS ?= 60
PROTO_CORPUS := $(PROTO_BUILD)/corpus

PROTO_TEST := $(PROTO_BUILD)/test_proto
PROTO_FUZZ := $(PROTO_BUILD)/fuzz_decoder

.PHONY: test-proto fuzz fuzz-short proto-size

$(PROTO_TEST): tests/proto/test_proto.c tests/proto/decode_feed.h $(PROTO_SRC) $(PROTO_HDR)
	@mkdir -p $(@D)
	$(PROTO_CC) $(PROTO_CFLAGS) $(PROTO_SAN) tests/proto/test_proto.c $(PROTO_SRC) -o $@

$(PROTO_FUZZ): tests/proto/fuzz_decoder.c tests/proto/decode_feed.h $(PROTO_SRC) $(PROTO_HDR)
	@mkdir -p $(@D)
	clang $(PROTO_CFLAGS) -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	  tests/proto/fuzz_decoder.c $(PROTO_SRC) -o $@

$(PROTO_FW_OBJ): $(PROTO_SRC) $(PROTO_HDR)
	@mkdir -p $(@D)
	$(FW_CC) $(FW_CFLAGS) -Os -c $< -o $@

test-proto: $(PROTO_TEST)
	$(PROTO_TEST)

# the corpus starts from valid frames of every type and grows across runs
define proto_fuzz_run
	@mkdir -p $(PROTO_CORPUS)
	@$(PROTO_TEST) --write-corpus $(PROTO_CORPUS)
	@$(PROTO_FUZZ) -max_total_time=$(1) -max_len=2048 -print_final_stats=1 \
	  $(PROTO_CORPUS) > $(PROTO_BUILD)/fuzz.log 2>&1 || { tail -40 $(PROTO_BUILD)/fuzz.log; exit 1; }
	@awk '/^Done [0-9]+ runs/ { print "fuzz: " $$2 " executions in " $$5 " s, no failure" }' $(PROTO_BUILD)/fuzz.log
endef

fuzz: $(PROTO_FUZZ) $(PROTO_TEST)
	$(call proto_fuzz_run,$(FUZZ_SECONDS))

fuzz-short: $(PROTO_FUZZ) $(PROTO_TEST)
	$(call proto_fuzz_run,10)

proto-size: $(PROTO_FW_OBJ)
	$(RV_PREFIX)size $<
