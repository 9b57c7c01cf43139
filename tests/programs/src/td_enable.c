/* td_enable: the counter enables of the board's emulated top-down CSRs
 * (t_topdown_sdk.py). Run in S-mode (hpmctl run --mode s): reads slots in
 * S (allowed by mcounteren.CY, which hpmctl sets), sets scounteren to
 * argv[1], then reads slots from U. With scounteren.CY clear that read must
 * be an illegal instruction (the run ends there); with it set the U code
 * exits with code 7. */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>

int main(int argc, char **argv)
{
	uint32_t s, en = argc > 1 ? (uint32_t)atoi(argv[1]) : 0;
	__asm__ volatile("csrr %0, 0xcc0" : "=r"(s));
	printf("S: slots %s, scounteren %lu\n", s ? "counting" : "0", (unsigned long)en);
	fflush(stdout);
	__asm__ volatile("csrw scounteren, %0\n\t"
			 "la t0, 1f\n\t"
			 "csrw sepc, t0\n\t"
			 "li t0, 0x100\n\t"          /* sstatus.SPP = U */
			 "csrc sstatus, t0\n\t"
			 "sret\n"
			 "1:\tcsrr a0, 0xcc0\n\t"
			 "li a0, 7\n\t"
			 "li a7, 93\n\t"             /* exit(7) from U */
			 "ecall"
			 :: "r"(en) : "t0", "a0", "a7", "memory");
	return 1;
}
