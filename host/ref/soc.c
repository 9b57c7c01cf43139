/* soc.c: the model's memories and devices (docs/memory-map.md): fw (8 KiB at
 * 0), ram (128 KiB at 0x80000000), CLINT, UART, GPIO; model lifetime. */
#include "hpmref_int.h"
#include <stdlib.h>

/* GPIO clock_hz (read-only): the core clock the board runs at. The simulated
 * board uses the hpm_soc default CLOCK_HZ, HPM_SOC_CLOCK_HZ (the iCEBreaker
 * top passes its PLL frequency), so the model reports that default. */
void hpm_print_memmap(FILE *out)
{
	static const hpm_region regions[] = {
#define HPM_REGION(n, b, s, x, mo, brief) { #n, b, s },
#include "memmap.def"
	};
	for (unsigned i = 0; i < sizeof regions / sizeof regions[0]; i++)
		fprintf(out, "%s 0x%08x 0x%08x\n", regions[i].name,
			(unsigned)regions[i].base, (unsigned)regions[i].size);
}

hpmref *hpmref_new(const hpmref_config *cfg)
{
	hpmref *m = calloc(1, sizeof *m);
	if (!m)
		return NULL;
	if (cfg)
		m->cfg = *cfg;
	else
		m->cfg.uart_div = HPM_UART_DIV_DEFAULT;
	m->uart_div = m->cfg.uart_div ? m->cfg.uart_div : HPM_UART_DIV_DEFAULT;
	m->pc = m->cfg.boot_addr;
	m->priv = PRV_M;
	m->cycle = T_FIRST_ENTRY;
	m->mtimecmp = ~(uint64_t)0;
	m->mtime_off = 0;
	ref_hpm_init(m);
	return m;
}

void hpmref_free(hpmref *m)
{
	free(m);
}

void hpmref_set_pc(hpmref *m, uint32_t pc)
{
	m->pc = pc;
}

uint64_t hpmref_cycle(const hpmref *m)
{
	return m->cycle;
}
uint32_t hpmref_pc(const hpmref *m)
{
	return m->pc;
}
uint32_t hpmref_reg(const hpmref *m, unsigned i)
{
	return i < 32 ? m->x[i] : 0;
}

/* Host view of fw/ram: pointer to [addr, addr+len) or NULL. */
static uint8_t *host_ptr(const hpmref *m, uint32_t addr, size_t len)
{
	if ((uint64_t)addr - HPM_FW_BASE + len <= HPM_FW_SIZE)
		return (uint8_t *)m->fw + (addr - HPM_FW_BASE);
	if (addr >= HPM_RAM_BASE && (uint64_t)addr - HPM_RAM_BASE + len <= HPM_RAM_SIZE)
		return (uint8_t *)m->ram + (addr - HPM_RAM_BASE);
	return NULL;
}

int hpmref_write_mem(hpmref *m, uint32_t addr, const void *src, size_t len)
{
	uint8_t *p = host_ptr(m, addr, len);
	if (!p)
		return -1;
	if (len)
		memcpy(p, src, len);
	return 0;
}

int hpmref_read_mem(const hpmref *m, uint32_t addr, void *dst, size_t len)
{
	const uint8_t *p = host_ptr(m, addr, len);
	if (!p)
		return -1;
	if (len)
		memcpy(dst, p, len);
	return 0;
}

size_t hpmref_uart_put(hpmref *m, const uint8_t *buf, size_t len)
{
	size_t n = 0;
	while (n < len && m->rx_len < UART_BUF_SIZE) {
		m->rx_buf[(m->rx_head + m->rx_len) % UART_BUF_SIZE] = buf[n++];
		m->rx_len++;
	}
	return n;
}

int hpmref_uart_waiting(const hpmref *m)
{
	return m->rx_len == 0 && m->rx_idle >= HPMREF_UART_IDLE_POLLS;
}

size_t hpmref_uart_take(hpmref *m, uint8_t *buf, size_t cap)
{
	size_t n = 0;
	while (n < cap && m->uart_len) {
		buf[n++] = m->uart_buf[m->uart_head];
		m->uart_head = (m->uart_head + 1) % UART_BUF_SIZE;
		m->uart_len--;
	}
	return n;
}

uint64_t ref_soc_mtime(const hpmref *m, uint64_t t)
{
	return t + m->mtime_off;
}

static int uart_busy(const hpmref *m, uint64_t t)
{
	return m->uart_tx_valid && t > m->uart_tx_t &&
	       t <= m->uart_tx_t + 10u * (uint64_t)m->uart_div;
}

/* Reads the 32-bit device register at word offset off of a device in cycle t.
 * Returns 0, or -1 if addr is in no region. */
static int dev_read_word(hpmref *m, uint32_t addr, uint64_t t, uint32_t *w)
{
	uint32_t off;
	*w = 0;
	if (addr - HPM_CLINT_BASE < HPM_CLINT_SIZE) {
		off = (addr - HPM_CLINT_BASE) & ~3u;
		uint64_t mt = ref_soc_mtime(m, t);
		switch (off) {
		case CLINT_MSIP_OFF: *w = m->msip & 1u; break;
		case CLINT_MTIMECMP_OFF: *w = (uint32_t)m->mtimecmp; break;
		case CLINT_MTIMECMPH_OFF: *w = (uint32_t)(m->mtimecmp >> 32); break;
		case CLINT_MTIME_OFF: *w = (uint32_t)mt; break;
		case CLINT_MTIMEH_OFF: *w = (uint32_t)(mt >> 32); break;
		default: break;
		}
		return 0;
	}
	if (addr - HPM_UART_BASE < HPM_UART_SIZE) {
		off = (addr - HPM_UART_BASE) & ~3u;
		switch (off) {
		case UART_DATA_OFF:
			if (m->rx_len) {
				*w = m->rx_buf[m->rx_head];
				m->rx_head = (m->rx_head + 1) % UART_BUF_SIZE;
				m->rx_len--;
			}
			m->rx_idle = 0;
			break;
		case UART_STATUS_OFF:
			*w = (uart_busy(m, t) ? UART_ST_TX_BUSY : 0u) | (m->rx_len ? UART_ST_RX_VALID : 0u);
			m->rx_idle = *w ? 0 : m->rx_idle + 1;
			break;
		case UART_DIV_OFF: *w = m->uart_div; break;
		default: break;
		}
		return 0;
	}
	if (addr - HPM_GPIO_BASE < HPM_GPIO_SIZE) {
		off = (addr - HPM_GPIO_BASE) & ~3u;
		if (off == GPIO_LEDS_OFF)
			*w = m->leds;
		else if (off == GPIO_CLOCK_HZ_OFF)
			*w = HPM_SOC_CLOCK_HZ;
		return 0;
	}
	return -1;
}

int ref_soc_load(hpmref *m, uint32_t addr, unsigned size, uint64_t t, uint32_t *val)
{
	const uint8_t *p = NULL;
	if (addr - HPM_RAM_BASE < HPM_RAM_SIZE)
		p = m->ram + (addr - HPM_RAM_BASE);
	else if (addr - HPM_FW_BASE < HPM_FW_SIZE)
		p = m->fw + (addr - HPM_FW_BASE);
	if (p) {
		uint32_t v = p[0];
		if (size >= 2)
			v |= (uint32_t)p[1] << 8;
		if (size == 4)
			v |= (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
		*val = v;
		return 0;
	}
	uint32_t w;
	if (dev_read_word(m, addr, t, &w))
		return -1;
	w >>= 8 * (addr & 3u);
	*val = size == 4 ? w : size == 2 ? (w & 0xFFFFu)
					 : (w & 0xFFu);
	return 0;
}

/* Merges the bytes of a store (val already shifted into lanes, be) into w. */
static uint32_t merge_be(uint32_t w, uint32_t val, unsigned be)
{
	uint32_t mask = 0;
	for (unsigned i = 0; i < 4; i++)
		if (be & (1u << i))
			mask |= 0xFFu << (8 * i);
	return (w & ~mask) | (val & mask);
}

int ref_soc_store(hpmref *m, uint32_t addr, unsigned size, uint32_t val, uint64_t t)
{
	uint8_t *p = NULL;
	if (addr - HPM_RAM_BASE < HPM_RAM_SIZE)
		p = m->ram + (addr - HPM_RAM_BASE);
	else if (addr - HPM_FW_BASE < HPM_FW_SIZE)
		p = m->fw + (addr - HPM_FW_BASE);
	if (p) {
		p[0] = (uint8_t)val;
		if (size >= 2)
			p[1] = (uint8_t)(val >> 8);
		if (size == 4) {
			p[2] = (uint8_t)(val >> 16);
			p[3] = (uint8_t)(val >> 24);
		}
		return 0;
	}
	unsigned sh = 8 * (addr & 3u);
	unsigned be = (size == 4 ? 0xFu : size == 2 ? 0x3u
						    : 0x1u)
		      << (addr & 3u);
	uint32_t lanes = val << sh;
	uint32_t off;
	if (addr - HPM_CLINT_BASE < HPM_CLINT_SIZE) {
		off = (addr - HPM_CLINT_BASE) & ~3u;
		switch (off) {
		case CLINT_MSIP_OFF:
			m->msip = merge_be(m->msip, lanes, be) & 1u;
			break;
		case CLINT_MTIMECMP_OFF:
			m->mtimecmp = (m->mtimecmp & ~0xFFFFFFFFull) |
				      merge_be((uint32_t)m->mtimecmp, lanes, be);
			break;
		case CLINT_MTIMECMPH_OFF:
			m->mtimecmp = (m->mtimecmp & 0xFFFFFFFFull) |
				      (uint64_t)merge_be((uint32_t)(m->mtimecmp >> 32), lanes, be) << 32;
			break;
		case CLINT_MTIME_OFF:
		case CLINT_MTIMEH_OFF: {
			/* the written bytes replace, no increment at this edge: the new
             * value holds in cycle t+1 */
			uint64_t mt = ref_soc_mtime(m, t);
			if (off == CLINT_MTIME_OFF)
				mt = (mt & ~0xFFFFFFFFull) | merge_be((uint32_t)mt, lanes, be);
			else
				mt = (mt & 0xFFFFFFFFull) |
				     (uint64_t)merge_be((uint32_t)(mt >> 32), lanes, be) << 32;
			m->mtime_off = mt - (t + 1);
			break;
		}
		default: break;
		}
		return 0;
	}
	if (addr - HPM_UART_BASE < HPM_UART_SIZE) {
		off = (addr - HPM_UART_BASE) & ~3u;
		if (off == UART_DATA_OFF)
			m->rx_idle = 0;
		if (off == UART_DATA_OFF && (be & 1u) && !uart_busy(m, t)) {
			m->uart_tx_valid = 1;
			m->uart_tx_t = t;
			if (m->uart_len < UART_BUF_SIZE) {
				m->uart_buf[(m->uart_head + m->uart_len) % UART_BUF_SIZE] = (uint8_t)lanes;
				m->uart_len++;
			}
		}
		return 0;
	}
	if (addr - HPM_GPIO_BASE < HPM_GPIO_SIZE) {
		off = (addr - HPM_GPIO_BASE) & ~3u;
		if (off == GPIO_LEDS_OFF)
			m->leds = merge_be(m->leds, lanes, be) & 0x1Fu;
		return 0;
	}
	return -1;
}
