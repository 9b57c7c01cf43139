/* hello: the smallest RAM program; prints over the UART and passes. */
#include "hpm_lib.h"

int main(void)
{
	puts("hello, world");
	return 0;
}
