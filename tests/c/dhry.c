/* dhry: a Dhrystone-like mix of calls, records, pointers and branches:
 * recursive fib and ackermann, struct copies, a small state machine. */
#include "common.h"

typedef struct rec {
	struct rec *next;
	int kind;
	int value;
	char name[16];
} rec;

static rec pool[64];

static int __attribute__((noinline)) fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static int __attribute__((noinline)) ack(int m, int n)
{
	if (m == 0) return n + 1;
	if (n == 0) return ack(m - 1, 1);
	return ack(m - 1, ack(m, n - 1));
}

static int __attribute__((noinline)) proc(rec *r, int x)
{
	rec copy = *r;
	copy.value += x;
	switch (copy.kind) {
	case 0: copy.value *= 3; break;
	case 1: copy.value -= 7; break;
	case 2: copy.value ^= 0x55; break;
	default: copy.value = -copy.value; break;
	}
	*r = copy;
	return copy.value & 0xff;
}

int main(void)
{
	CHECK(1, fib(20) == 6765);
	CHECK(2, ack(2, 5) == 13);
	for (int i = 0; i < 64; i++) {
		pool[i].next = &pool[(i * 7 + 1) % 64];
		pool[i].kind = i % 5;
		pool[i].value = i;
		strcpy(pool[i].name, "DHRYSTONE PROG");
	}
	uint32_t acc = 0;
	rec *r = &pool[0];
	for (int iter = 0; iter < 3000; iter++) {
		acc += (uint32_t)proc(r, iter);
		r = r->next;
	}
	int same = 0;
	for (int i = 0; i < 64; i++)
		same += strcmp(pool[i].name, "DHRYSTONE PROG") == 0;
	CHECK(3, same == 64);
	CHECK(4, acc != 0);
	printf("dhry %u\n", (unsigned)acc);
	return 0;
}
