# usb.mk: the USB link's tests without hardware (tests/usb/, docs/usb.md).
#   make test-usb   build the FT2232H emulator (umockdev) and the link test
#                   clients, then run the usb suite of tests/run.sh
# Builds:
#   build/tests/ftdi_emu                 umockdev FT2232H, bridges channel B to a board
#   build/tests/usb_link_test            link tests (host/lib/link_usb.c + proto/)
#   build/tests/usb_link_test_<fault>    the same with a test fault in the driver, to
#                                        show the checks fail: nostrip (modem-status
#                                        bytes kept), stripfirst (stripped only at the
#                                        start of a transfer), nolatency (no latency
#                                        timer request), nodata (no 8N1 request)
# link_usb.c is compiled straight into the test clients (libhpm.a is host.mk's).

USB_BUILD    := $(BUILD)/tests
USB_EMU      := $(USB_BUILD)/ftdi_emu
USB_TEST     := $(USB_BUILD)/usb_link_test
USB_FAULTS   := nostrip stripfirst nolatency nodata
USB_TEST_FAULTS := $(foreach f,$(USB_FAULTS),$(USB_BUILD)/usb_link_test_$(f))
USB_BINS     := $(USB_EMU) $(USB_TEST) $(USB_TEST_FAULTS)

USB_LIBUSB_CFLAGS := $(shell pkg-config --cflags libusb-1.0 2>/dev/null)
USB_LIBUSB_LIBS   := $(shell pkg-config --libs libusb-1.0 2>/dev/null || echo -lusb-1.0)
USB_EMU_CFLAGS    := $(shell pkg-config --cflags umockdev-1.0 glib-2.0 gobject-2.0 2>/dev/null)
USB_EMU_LIBS      := $(shell pkg-config --libs umockdev-1.0 glib-2.0 gobject-2.0 2>/dev/null || echo -lumockdev -lgobject-2.0 -lglib-2.0)

USB_CLIENT_SRCS := tests/usb/usb_link_test.c host/lib/link_usb.c $(PROTO_SRC)
USB_CLIENT_DEPS := $(USB_CLIENT_SRCS) host/lib/link.h $(PROTO_HDR)
USB_CLIENT_CC    = $(HOST_CC) $(HOST_CFLAGS) -Ihost/lib $(PROTO_INC) $(USB_LIBUSB_CFLAGS)

USB_FAULT_nostrip   := -DHPM_USB_TEST_NO_STRIP
USB_FAULT_stripfirst := -DHPM_USB_TEST_STRIP_FIRST
USB_FAULT_nolatency := -DHPM_USB_TEST_NO_LATENCY
USB_FAULT_nodata    := -DHPM_USB_TEST_NO_DATA

.PHONY: test-usb usb-build

usb-build: $(USB_BINS)

$(USB_EMU): tests/usb/ftdi_emu.c tests/link/faults.h
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) $(USB_EMU_CFLAGS) -o $@ $< $(USB_EMU_LIBS) -lm

$(USB_TEST): $(USB_CLIENT_DEPS)
	@mkdir -p $(@D)
	$(USB_CLIENT_CC) -o $@ $(USB_CLIENT_SRCS) $(USB_LIBUSB_LIBS)

$(USB_BUILD)/usb_link_test_%: $(USB_CLIENT_DEPS)
	@mkdir -p $(@D)
	$(USB_CLIENT_CC) $(USB_FAULT_$*) -o $@ $(USB_CLIENT_SRCS) $(USB_LIBUSB_LIBS)

test-usb: $(USB_BINS)
	BUILD=$(BUILD) $(TEST_RUN) usb

# make test builds them too
test-build: $(USB_BINS)
bench: $(BUILD)/tests/ftdi_emu
