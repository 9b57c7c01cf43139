/* guard_monram: a store into the monitor's data and stack (MONRAM) */
#include "guard.h"

int main(void)
{
	guard_store(0x8001f800, 0);
	return 0;
}
