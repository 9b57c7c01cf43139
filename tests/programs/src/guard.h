/* guard.h: what a buggy user program does to the board's M-only parts
 * (docs/memory-map.md, Protection): one store or jump the compiler cannot
 * drop or turn into a trap of its own. */
#ifndef GUARD_H
#define GUARD_H
#include <stdint.h>

static inline void guard_store(uintptr_t addr, uint32_t val)
{
	__asm__ volatile("sw %1, 0(%0)" : : "r"(addr), "r"(val) : "memory");
}

static inline void guard_jump(uintptr_t addr)
{
	__asm__ volatile("jalr ra, 0(%0)" : : "r"(addr) : "ra", "memory");
}
#endif
