/* hpm.c: the HPM unit's CSRs (mhpmcounter3..31(h), mhpmevent3..31(h)).
 * For now every counter and selector reads 0 and ignores writes; csr.c routes
 * all of 0xB03-0xB1F, 0xB83-0xB9F, 0xC03-0xC1F, 0xC83-0xC9F, 0x323-0x33F and
 * 0x723-0x73F here, so the full unit (events, inhibit, overflow, LCOFI)
 * replaces only this file and the per-step event hook in iss.c. */
#include "hpmref_int.h"

void hpm_reset(hpm_unit *h)
{
    memset(h, 0, sizeof *h);
}

uint32_t hpm_counter_read(const hpmref *m, unsigned idx, int hi, uint64_t t)
{
    (void)m; (void)idx; (void)hi; (void)t;
    return 0;
}

uint32_t hpm_counter_write(hpmref *m, unsigned idx, int hi, uint32_t val, uint64_t t)
{
    (void)val;
    return hpm_counter_read(m, idx, hi, t + 1);
}

uint32_t hpm_event_read(const hpmref *m, unsigned idx, int hi)
{
    (void)m; (void)idx; (void)hi;
    return 0;
}

uint32_t hpm_event_write(hpmref *m, unsigned idx, int hi, uint32_t val)
{
    (void)val;
    return hpm_event_read(m, idx, hi);
}
