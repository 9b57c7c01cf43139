/* strings: memcpy/memmove/memset/strlen/strcmp over unaligned buffers,
 * byte loops, reverse and compare; checksums must agree both ways. */
#include "common.h"

static char src[2048], dst[2048], tmp[2048];

static void reverse(char *s, size_t n)
{
	for (size_t i = 0, j = n - 1; i < j; i++, j--) {
		char t = s[i];
		s[i] = s[j];
		s[j] = t;
	}
}

static uint32_t fnv(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)s[i]) * 16777619u;
	return h;
}

int main(void)
{
	uint32_t st = 7;
	for (int i = 0; i < 2047; i++)
		src[i] = (char)('a' + xs32(&st) % 26);
	src[2047] = 0;
	CHECK(1, strlen(src) == 2047);
	uint32_t h0 = fnv(src, 2047);
	for (int round = 0; round < 8; round++) {
		for (int off = 0; off < 4; off++) {
			memset(dst, 0, sizeof dst);
			memcpy(dst + off, src + round, 1500);
			CHECK(2, memcmp(dst + off, src + round, 1500) == 0);
		}
	}
	strcpy(tmp, src);
	CHECK(3, strcmp(tmp, src) == 0);
	reverse(tmp, 2047);
	CHECK(4, fnv(tmp, 2047) != h0);
	reverse(tmp, 2047);
	CHECK(5, fnv(tmp, 2047) == h0);
	memmove(tmp + 3, tmp, 1000);
	memmove(tmp, tmp + 3, 1000);
	CHECK(6, memcmp(tmp, src, 1000) == 0);
	tmp[100] = 'A';
	CHECK(7, strcmp(tmp, src) < 0);
	/* count letter frequencies */
	uint32_t freq[26] = { 0 };
	for (int i = 0; i < 2047; i++)
		freq[src[i] - 'a']++;
	uint32_t total = 0;
	for (int i = 0; i < 26; i++)
		total += freq[i];
	CHECK(8, total == 2047);
	printf("strings %08x\n", (unsigned)h0);
	return 0;
}
