/* guard_uart: a store to the UART's data register (the link's own line) */
#include "guard.h"

int main(void)
{
	guard_store(0x10000000, 'x');
	return 0;
}
