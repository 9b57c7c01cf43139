/* guard_mtimecmp: a store to the CLINT's mtimecmp (the monitor's tick) */
#include "guard.h"

int main(void)
{
	guard_store(0x02004000, 0);
	return 0;
}
