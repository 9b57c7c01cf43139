/* The firmware monitor (runs from EBR at reset). For now: announce itself on
 * the UART and echo every received byte; the framed protocol comes later. */
#include "hpm_soc.h"
#include "hpm_lib.h"

#define MONITOR_BANNER "hpm-overlay monitor 0.1 ready\n"

int main(void)
{
    GPIO_LEDS = 1;
    uart_puts(MONITOR_BANNER);
    for (;;) {
        int c = uart_getc_blocking();
        uart_putc((char)c);
    }
}
