/* crc32: CRC-32 (IEEE) of a 16 KiB buffer, table-driven and bitwise; both
 * must agree, and the check value of "123456789" must be 0xcbf43926. */
#include "common.h"

static uint32_t table[256];
static uint8_t buf[16384];

static uint32_t crc_bitwise(const uint8_t *p, uint32_t n)
{
	uint32_t c = 0xffffffffu;
	while (n--) {
		c ^= *p++;
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1)));
	}
	return ~c;
}

static uint32_t crc_table(const uint8_t *p, uint32_t n)
{
	uint32_t c = 0xffffffffu;
	while (n--)
		c = table[(c ^ *p++) & 0xff] ^ (c >> 8);
	return ~c;
}

int main(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1)));
		table[i] = c;
	}
	CHECK(1, crc_table((const uint8_t *)"123456789", 9) == 0xcbf43926u);
	CHECK(2, crc_bitwise((const uint8_t *)"123456789", 9) == 0xcbf43926u);
	uint32_t s = 0x12345678;
	for (uint32_t i = 0; i < sizeof buf; i++)
		buf[i] = (uint8_t)xs32(&s);
	uint32_t a = crc_table(buf, sizeof buf);
	uint32_t b = crc_bitwise(buf, 4096);
	uint32_t b2 = crc_table(buf, 4096);
	CHECK(3, b == b2);
	/* appending the CRC (little endian) gives the magic residue */
	buf[4096] = (uint8_t)b;
	buf[4097] = (uint8_t)(b >> 8);
	buf[4098] = (uint8_t)(b >> 16);
	buf[4099] = (uint8_t)(b >> 24);
	CHECK(4, crc_table(buf, 4100) == 0x2144df1cu);
	printf("crc32 %08x %08x\n", (unsigned)a, (unsigned)b);
	return 0;
}
