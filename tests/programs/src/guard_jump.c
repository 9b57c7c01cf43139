/* guard_jump: a call into the monitor's code (its reset entry at 0) */
#include "guard.h"

int main(void)
{
	guard_jump(0x0);
	return 0;
}
