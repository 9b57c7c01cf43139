/* The SoC memory map (docs/memory-map.md), as a table for the reference model
 * and the runners. The base/size constants live in hpmref.h. */
#ifndef HPM_SOC_MAP_H
#define HPM_SOC_MAP_H

#include "hpmref.h"

typedef struct hpm_region {
    const char *name;
    uint32_t base, size;
} hpm_region;

#define HPM_REGIONS_INIT { \
    { "fw",    HPM_FW_BASE,    HPM_FW_SIZE    }, \
    { "clint", HPM_CLINT_BASE, HPM_CLINT_SIZE }, \
    { "uart",  HPM_UART_BASE,  HPM_UART_SIZE  }, \
    { "gpio",  HPM_GPIO_BASE,  HPM_GPIO_SIZE  }, \
    { "ram",   HPM_RAM_BASE,   HPM_RAM_SIZE   }, \
}
#define HPM_NUM_REGIONS 5

/* CLINT register offsets */
#define CLINT_MSIP       0x0000u
#define CLINT_MTIMECMP   0x4000u
#define CLINT_MTIMECMPH  0x4004u
#define CLINT_MTIME      0xBFF8u
#define CLINT_MTIMEH     0xBFFCu
/* UART register offsets */
#define UART_DATA   0x0u
#define UART_STATUS 0x4u
#define UART_DIV    0x8u
#define UART_ST_TX_BUSY  (1u << 0)
#define UART_ST_RX_VALID (1u << 1)
/* GPIO register offsets */
#define GPIO_LEDS    0x0u
#define GPIO_BUTTONS 0x4u

#endif
