# mk/link.mk: the tests and benchmark of the link, the firmware monitor
# and libhpm over the protocol (tests/link, bench/link.c); after host.mk,
# whose libraries they link

# ---- tests of the monitor and the library (tests/link), ASan/UBSan ----
TEST_LINK := $(BUILD)/tests/test_link
$(TEST_LINK): tests/link/test_link.c $(HPM_LIB_ASAN) $(wildcard $(HPM_LIB_DIR)/*.h)
	@mkdir -p $(@D)
	$(HOST_CC) $(HPM_LIB_CFLAGS) -O1 $(HPM_SAN) -o $@ $< $(HPM_LIB_ASAN) $(HPM_LIB_LIBS) -lutil
test-build: $(TEST_LINK)

# directed test programs on a board through its monitor (tests/link/elfrun.c;
# the board suite runs them on the gate-level board against the reference)
ELFRUN := $(BUILD)/tests/elfrun
$(ELFRUN): tests/link/elfrun.c $(HPM_LIB) $(HPM_LIB_DIR)/hpm.h $(REF_DIR)/hpmref.h
	@mkdir -p $(@D)
	$(HOST_CC) $(HPM_LIB_CFLAGS) -o $@ $< $(HPM_LIB) $(HPM_LIB_LIBS)
test-build: $(ELFRUN)

# the fault injector between a pty and a board (tests/link/faultproxy.c)
FAULTPROXY := $(BUILD)/tests/faultproxy
$(FAULTPROXY): tests/link/faultproxy.c tests/link/faults.h
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) $(HPM_SAN) -o $@ $< -lutil
test-build: $(FAULTPROXY)

# the monitor under hostile frames (tests/link/monitor_abuse.c)
MONITOR_ABUSE := $(BUILD)/tests/monitor_abuse
$(MONITOR_ABUSE): tests/link/monitor_abuse.c $(HPM_LIB_ASAN) $(wildcard $(HPM_LIB_DIR)/*.h)
	@mkdir -p $(@D)
	$(HOST_CC) $(HPM_LIB_CFLAGS) -O1 $(HPM_SAN) -o $@ $< $(HPM_LIB_ASAN) $(HPM_LIB_LIBS)
test-build: $(MONITOR_ABUSE)

# make bench: link round trips and streaming through libhpm (bench/link.c)
BENCH_LINK := $(BENCH_BUILD)/link
$(BENCH_LINK): bench/link.c $(HPM_LIB) $(HPM_LIB_DIR)/hpm.h
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -I$(HPM_LIB_DIR) -o $@ $< $(HPM_LIB) $(HPM_LIB_LIBS)
# and sampling with call chains: bench/deep.c built as a user's program, by
# hpm-cc (frame pointers kept)
BENCH_DEEP := $(BENCH_BUILD)/deep.elf
$(BENCH_DEEP): bench/deep.c $(HPM_CC) $(SDK_FILES)
	@mkdir -p $(@D)
	$(HPM_CC) -O2 -o $@ $<
bench: $(BENCH_LINK) $(BENCH_DEEP)
