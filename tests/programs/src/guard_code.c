/* guard_code: a store over one instruction of the monitor's code (0x100),
 * which on an unprotected board zeroes every later run's counts */
#include "guard.h"

int main(void)
{
	guard_store(0x100, 0);
	return 0;
}
