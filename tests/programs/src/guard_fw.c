/* guard_fw: a store over the monitor's first instruction (the EBR at 0) */
#include "guard.h"

int main(void)
{
	guard_store(0x0, 0);
	return 0;
}
