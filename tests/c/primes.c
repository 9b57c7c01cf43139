/* primes: count primes below 30000 with a sieve and by trial division
 * (div/rem heavy); pi(30000) = 3245; gcd/modpow identities. */
#include "common.h"

#define LIMIT 30000
static uint8_t composite[LIMIT];

static int is_prime(uint32_t n)
{
	if (n < 2) return 0;
	for (uint32_t d = 2; d * d <= n; d++)
		if (n % d == 0)
			return 0;
	return 1;
}

static uint32_t gcd(uint32_t a, uint32_t b)
{
	while (b) {
		uint32_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

static uint32_t modpow(uint32_t b, uint32_t e, uint32_t m)
{
	uint32_t r = 1;
	b %= m;
	while (e) {
		if (e & 1)
			r = (uint32_t)(((uint64_t)r * b) % m);
		b = (uint32_t)(((uint64_t)b * b) % m);
		e >>= 1;
	}
	return r;
}

int main(void)
{
	int sieve_count = 0;
	for (uint32_t i = 2; i < LIMIT; i++) {
		if (composite[i])
			continue;
		sieve_count++;
		for (uint32_t j = i * i; j < LIMIT; j += i)
			composite[j] = 1;
	}
	CHECK(1, sieve_count == 3245);
	int trial = 0;
	for (uint32_t n = 0; n < 6000; n++)
		trial += is_prime(n);
	CHECK(2, trial == 783);
	for (uint32_t n = 6000; n < 6600; n++)
		CHECK(3, is_prime(n) == !composite[n]);
	CHECK(4, gcd(1071, 462) == 21);
	int32_t x = -7, y = 2;
	CHECK(5, x / y == -3 && x % y == -1);
	/* Fermat: a^(p-1) = 1 mod p */
	CHECK(6, modpow(3, 29988, 29989) == 1);
	printf("primes %d %d\n", sieve_count, trial);
	return 0;
}
