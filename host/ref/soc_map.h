/* The SoC memory map (docs/memory-map.md): the region table comes from
 * hw/soc/memmap.def; the base/size constants and the device register
 * offsets (*_OFF) are in the generated hpm_map.h (via hpmref.h). */
#ifndef HPM_SOC_MAP_H
#define HPM_SOC_MAP_H

#include "hpmref.h"

typedef struct hpm_region {
	const char *name;
	uint32_t base, size;
} hpm_region;

#define UART_ST_TX_BUSY (1u << 0)
#define UART_ST_RX_VALID (1u << 1)

#endif
